// The mix of commands behind a figure such as "commands per acquisition": which commands Redis
// ran, each per acquisition. Kept as figures of their own (`command:<name>`), so that they go
// through the repetitions like every other figure and land in latest.json beside the total.
import type { Figures } from './repetitions.js';

const COMMAND_FIGURE = 'command:';

/**
 * One figure per command name: its calls in `byCommand` less those in `less` (the benchmark's
 * own probes among them), divided by `per`.
 */
export function commandMixFigures(
  byCommand: Readonly<Record<string, number>>,
  per: number,
  less: Readonly<Record<string, number>> = {},
): Figures {
  return Object.fromEntries(
    Object.entries(byCommand)
      .map(([command, calls]) => [command, calls - (less[command] ?? 0)] as const)
      .filter(([, calls]) => calls > 0)
      .map(([command, calls]) => [`${COMMAND_FIGURE}${command}`, calls / per]),
  );
}

/** The command mix in `figures`, by command name, most frequent first. */
export function commandMixOf(figures: Figures): [command: string, perUnit: number][] {
  return Object.entries(figures)
    .filter(([key]) => key.startsWith(COMMAND_FIGURE))
    .map(([key, value]): [string, number] => [key.slice(COMMAND_FIGURE.length), value])
    .sort((a, b) => b[1] - a[1]);
}

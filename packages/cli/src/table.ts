/** A column of a {@link renderTable} table. */
export interface Column<Row> {
  readonly header: string;
  readonly value: (row: Row) => string;
  /** Numbers read best right-aligned. */
  readonly align?: 'left' | 'right';
}

/**
 * Renders rows as a plain-text table: a header line, then one line per row, columns padded to
 * their widest cell and two spaces apart. Trailing spaces are trimmed so the output diffs cleanly.
 */
export function renderTable<Row>(columns: readonly Column<Row>[], rows: readonly Row[]): string {
  const cells = rows.map((row) => columns.map((column) => column.value(row)));
  const widths = columns.map((column, i) =>
    Math.max(column.header.length, ...cells.map((line) => (line[i] ?? '').length)),
  );
  const line = (values: readonly string[]) =>
    values
      .map((value, i) =>
        columns[i]?.align === 'right' ? value.padStart(widths[i] ?? 0) : value.padEnd(widths[i] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.header)), ...cells.map(line)].join('\n');
}

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// scripts/bootstrap.sh picks the browser's package from `apt-cache policy chromium chromium-browser`
// with first_installable (scripts/aptCandidate.sh): here on the policies Debian 12 and Ubuntu 22.04
// print, and on one with neither, where bootstrap stops with one line.
const root = fileURLToPath(new URL('../../', import.meta.url));

function firstInstallable(policy: string): string {
  return execFileSync('bash', ['-c', 'source scripts/aptCandidate.sh && first_installable'], {
    cwd: root,
    input: policy,
    encoding: 'utf8',
  });
}

const policyOf = (name: string, candidate: string) =>
  `${name}:\n  Installed: (none)\n  Candidate: ${candidate}\n  Version table:\n` +
  (candidate === '(none)'
    ? ''
    : `     ${candidate} 500\n        500 http://mirror.example/ stable/main amd64 Packages\n`);

it('Debian: chromium, the first package named, when it has a candidate', () => {
  const policy = policyOf('chromium', '156.0.8078.108-1~deb12u1') + policyOf('chromium-browser', '(none)');
  expect(firstInstallable(policy)).toBe('chromium\n');
});

it('Ubuntu 22.04: chromium-browser, since chromium has no candidate', () => {
  const policy = policyOf('chromium', '(none)') + policyOf('chromium-browser', '1:85.0.4183.83-0ubuntu2.22.04.1');
  expect(firstInstallable(policy)).toBe('chromium-browser\n');
});

it('neither installable, or apt knows neither name: nothing', () => {
  expect(firstInstallable(policyOf('chromium', '(none)') + policyOf('chromium-browser', '(none)'))).toBe('');
  expect(firstInstallable('')).toBe('');
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'demo', 'bench', 'reliability', 'examples', 'docs'],
    reporters: ['default'],
  },
});

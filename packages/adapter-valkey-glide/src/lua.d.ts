// Lua scripts are inlined as text: by tsup's loader at build time, by a vitest plugin in tests.
declare module '*.lua' {
  const source: string;
  export default source;
}

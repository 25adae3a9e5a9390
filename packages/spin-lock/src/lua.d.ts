// Lua scripts are inlined as text, with the fragments their `--- @include` lines name: by tsup's
// build, by a vitest plugin in tests (see luaIncludes.mts at the repository's root).
declare module '*.lua' {
  const source: string;
  export default source;
}

// A `.lua` file as written, include lines and all (Vite's `?raw`): what tests read a header from.
declare module '*.lua?raw' {
  const text: string;
  export default text;
}

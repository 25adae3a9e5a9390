// Lua scripts are inlined as text: by tsup's build, by a vitest plugin in tests (luaIncludes.mts).
declare module '*.lua' {
  const source: string;
  export default source;
}

// The built CLI's entry (`dist/index.js`), loaded by `bin/stockbridge.mjs`.
export { nodeIo } from "./io.ts";
export { run } from "./main.ts";

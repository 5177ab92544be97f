import { ensureCliBuild } from "../../scripts/lib.mjs";

/** The CLI tests drive the built CLI (`cli/dist` through `bin/stockbridge.mjs`): build it when its sources changed. */
export default function setup() {
  ensureCliBuild();
}

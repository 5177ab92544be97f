import { changeFeedStatements } from "../change-feed-ddl.ts";
import type { Migration } from "../migrate.ts";

export const changeFeeds: Migration = {
  version: 27,
  name: "change feeds: a row version per mirrored row, a counter per user, tombstones for deletions",
  // The web app's offline mirror asks each feed for what changed since the version it holds, so
  // a 100,000-row catalog crosses the network once and then only its changes (change-feed-ddl.ts).
  statements: changeFeedStatements(),
};

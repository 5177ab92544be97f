import type { User } from "@stockbridge/shared";
import type { StockbridgeDatabase } from "./database.ts";

const USER_KEY = "session.user";

/**
 * The last signed-in user, kept so an installed app opened offline can show its saved lists instead
 * of a sign-in form that cannot work. Cleared with the token.
 */
export interface UserCache {
  load(): Promise<User | null>;
  save(user: User): Promise<void>;
  clear(): Promise<void>;
}

export function createUserCache(db: StockbridgeDatabase): UserCache {
  return {
    async load() {
      const row = await db.kv.get(USER_KEY);
      if (!row) return null;
      const parsed: unknown = JSON.parse(row.value);
      return isUser(parsed) ? parsed : null;
    },
    async save(user) {
      await db.kv.put({ key: USER_KEY, value: JSON.stringify(user), updatedAt: Date.now() });
    },
    async clear() {
      await db.kv.delete(USER_KEY);
    },
  };
}

/** A shape check is enough here: the value was written by `save` from a server-validated user. */
function isUser(value: unknown): value is User {
  return (
    typeof value === "object" &&
    value !== null &&
    "_id" in value &&
    typeof value._id === "string" &&
    "email" in value &&
    typeof value.email === "string"
  );
}

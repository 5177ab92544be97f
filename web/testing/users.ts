import type { User } from "@stockbridge/shared";

/** A user as the API returns it, with no subscription and no connections unless overridden. */
export function makeUser(overrides: Partial<User> = {}): User {
  return {
    _id: "u1",
    name: "Ada Lovelace",
    email: "ada@example.com",
    profileImage: null,
    subscription: null,
    acumaticaConnection: null,
    shopifyConnection: null,
    ...overrides,
  };
}

/**
 * How often a password hash may be checked: the whole policy, in one place. Every check is reserved
 * as an attempt row before the hash runs, in the same statement that applies these limits
 * (AuthRepo.reserveSignIn / reserveAttempt), so parallel requests cannot all pass a limit they each
 * read as not yet reached; a request refused here costs no hash. Failed and in-flight attempts count.
 */

const MINUTE_MS = 60_000;

export interface SignInLimits {
  windowMs: number;
  perAccountAndAddress: number;
  accountUnderAttack: number;
  accountSlotMs: number;
  addressSpraying: number;
  addressSlotMs: number;
  knownAddressMs: number;
}

export const SIGN_IN_LIMITS: SignInLimits = {
  windowMs: 15 * MINUTE_MS,
  // The one hard lockout: 5 checks for one account from one address, then 429 until the oldest of
  // them is 15 minutes old. It only bites whoever shares both the account and the address with the
  // guesser. A correct password resets it (only it: the account and address counts below stay).
  perAccountAndAddress: 5,
  // An account with 20 failures in the window, from any addresses, is under attack: from then on it
  // admits one check per 30 s from addresses that have not signed in to it. A botnet cannot lock the
  // owner out this way (their known addresses skip the rule; a new address waits for a free slot)
  // and its guesses drop to 2 a minute, however many addresses it has.
  accountUnderAttack: 20,
  accountSlotMs: 30_000,
  // An address with 20 distinct accounts failing in the window is spraying passwords: it gets one
  // check per 5 s for accounts that have not signed in from it. Colleagues behind the same office
  // address who signed in from it before are never slowed; one signing in there for the first time
  // waits at most a few seconds per try. A lockout per address alone would lock the office out.
  addressSpraying: 20,
  addressSlotMs: 5_000,
  // An address is known to an account for 30 days after a successful sign-in from it.
  knownAddressMs: 30 * 24 * 60 * MINUTE_MS,
};

export interface CountedLimit {
  limit: number;
  windowMs: number;
}

/**
 * Registrations per address and minute, whatever their outcome (config REGISTRATIONS_PER_MINUTE,
 * default 10): each one costs a hash, so a burst is capped (40 at once hashed 40 times); a team
 * signing up one after another is not slowed.
 */
export function registerLimit(perMinute: number): CountedLimit {
  return { limit: perMinute, windowMs: MINUTE_MS };
}

/**
 * Wrong current passwords on a password change, per account (the caller holds a session, so the
 * address adds nothing): a stolen token must not turn into a password-guessing oracle.
 */
export const PASSWORD_CHECK_LIMIT: CountedLimit = { limit: 5, windowMs: 15 * MINUTE_MS };

/**
 * Calculated-query-cost leaky bucket, one per (app, store). The bucket is debited the requested
 * cost before a query runs and refunded down to the actual cost afterwards; it refills continuously
 * at `restoreRate` points per second of the sandbox clock.
 */
export type ThrottleProfileName = "standard" | "plus" | "legacy";

export interface ThrottleProfile {
  maximumAvailable: number;
  restoreRate: number;
}

export const THROTTLE_PROFILES: Record<ThrottleProfileName, ThrottleProfile> = {
  // Current docs: Standard plans restore 100 points/s (bucket 2,000); Plus 1,000/s (20,000);
  // "legacy" is the pre-2025 Standard figure many libraries still hard-code.
  standard: { maximumAvailable: 2000, restoreRate: 100 },
  plus: { maximumAvailable: 20000, restoreRate: 1000 },
  legacy: { maximumAvailable: 1000, restoreRate: 50 },
};

export function isThrottleProfileName(value: unknown): value is ThrottleProfileName {
  return typeof value === "string" && Object.hasOwn(THROTTLE_PROFILES, value);
}

/** A single query may never request more than this, whatever the plan. */
export const MAX_QUERY_COST = 1000;

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface Bucket {
  profile: ThrottleProfile;
  available: number;
  /** Sandbox-clock time of `available`, in ms. */
  at: number;
}

export function createBucket(profile: ThrottleProfile, now: number): Bucket {
  return { profile, available: profile.maximumAvailable, at: now };
}

export function refill(bucket: Bucket, now: number): void {
  const seconds = Math.max(0, now - bucket.at) / 1000;
  bucket.available = Math.min(
    bucket.profile.maximumAvailable,
    bucket.available + seconds * bucket.profile.restoreRate,
  );
  bucket.at = Math.max(bucket.at, now);
}

/** Debits `cost` if the bucket holds it; false (and untouched) when the call must be THROTTLED. */
export function tryDebit(bucket: Bucket, cost: number, now: number): boolean {
  refill(bucket, now);
  if (bucket.available < cost) return false;
  bucket.available -= cost;
  return true;
}

export function credit(bucket: Bucket, points: number): void {
  bucket.available = Math.min(bucket.profile.maximumAvailable, bucket.available + points);
}

/** Switching plan keeps what is left, within the new bucket size. */
export function changeProfile(bucket: Bucket, profile: ThrottleProfile, now: number): void {
  refill(bucket, now);
  bucket.profile = profile;
  bucket.available = Math.min(bucket.available, profile.maximumAvailable);
}

export function throttleStatus(bucket: Bucket): ThrottleStatus {
  return {
    maximumAvailable: bucket.profile.maximumAvailable,
    currentlyAvailable: Math.floor(bucket.available),
    restoreRate: bucket.profile.restoreRate,
  };
}

/** Seconds until the bucket holds `cost` (what a client should wait after THROTTLED). */
export function secondsUntil(bucket: Bucket, cost: number): number {
  return Math.max(0, Math.ceil((cost - bucket.available) / bucket.profile.restoreRate));
}

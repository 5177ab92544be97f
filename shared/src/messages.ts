/** The message catalogue (spec section 8). Texts are a contract: do not reword. */
export const MESSAGES = {
  auth: {
    loginFailed: "Login failed",
    registrationFailed: "Registration failed",
    refreshFailed: "Token refresh failed",
    noRefreshToken: "No refresh token available",
    loginSuccess: "Login successful!",
    registrationSuccess: "Registration successful!",
    fixValidationErrors: "Please fix the validation errors",
  },
  subscription: {
    fetchPlansFailed: "Failed to fetch subscription plans",
    fetchStatusFailed: "Failed to fetch subscription status",
    createFailed: "Failed to create subscription",
    cancelFailed: "Failed to cancel subscription",
    updateFailed: "Failed to update subscription",
    checkoutFailed: "Failed to create checkout session",
    resumeFailed: "Failed to resume subscription",
    startFailed: "Failed to start subscription process",
    activated: "Subscription activated successfully!",
    willCancel: "Subscription will be canceled at the end of the billing period",
    resumed: "Subscription has been resumed",
    updated: "Subscription updated successfully",
    verificationFailed: "Subscription verification failed",
    endsAtPeriodEnd: "Your subscription will end at the end of the current billing period.",
  },
  products: {
    fetchShopifyFailed: "Failed to fetch Shopify products",
    syncShopifyFailed: "Failed to sync Shopify products",
    fetchAcumaticaFailed: "Failed to fetch Acumatica products",
    syncAcumaticaFailed: "Failed to sync Acumatica products",
    synchronized: "Products synchronized successfully",
  },
  mapping: {
    fetchHistoryFailed: "Failed to fetch mapping history",
    fetchUnmappedFailed: "Failed to fetch unmapped products",
    autoMapFailed: "Failed to perform auto mapping",
    manualMapFailed: "Failed to perform manual mapping",
    updateFailed: "Failed to update mapping",
    deleteFailed: "Failed to delete mapping",
    syncFailed: "Failed to sync mapping",
    fetchMappingsFailed: "Failed to fetch mappings",
    fetchByIdsFailed: "Failed to fetch mappings by IDs",
    deleted: "Mapping deleted successfully",
    synchronized: "Synchronized successfully",
    autoMapped: "Auto mapping completed successfully",
    updated: "Mapping updated successfully",
    manualMapped: "Manual mapping completed successfully",
    selectSyncOption: "Please select at least one sync option",
  },
  schedules: {
    fetchFailed: "Failed to fetch mapping schedules",
    createFailed: "Failed to create mapping schedule",
    statusFailed: "Failed to update mapping schedule status",
    deleteFailed: "Failed to delete mapping schedule",
    updateFailed: "Failed to update mapping schedule",
    created: "Schedule created successfully",
    updated: "Schedule updated successfully",
    deleted: "Schedule deleted successfully",
    activated: "Schedule activated successfully",
    deactivated: "Schedule deactivated successfully",
  },
  settings: {
    fetchFailed: "Failed to fetch settings",
    quantityFailed: "Failed to update quantity mapping settings",
    priceFailed: "Failed to update price mapping settings",
    quantitySaved: "Quantity mapping settings saved successfully",
    priceSaved: "Price mapping settings saved successfully",
    atLeastOnePrice: "At least one price field must be synced",
    safetyFailed: "Failed to update safety limits",
    safetySaved: "Safety limits saved successfully",
    locationFailed: "Failed to update location mapping settings",
    locationSaved: "Location mapping settings saved successfully",
    locationRequired: "locations must map at least one Shopify location",
    locationsFailed: "Failed to fetch Shopify locations",
    warehousesFailed: "Failed to fetch Acumatica warehouses",
  },
  history: {
    fetchFailed: "Failed to fetch execution history",
    fetchPlanFailed: "Failed to fetch the held plan",
    approveFailed: "Failed to approve the held run",
    discardFailed: "Failed to discard the held run",
    approved: "Approved: the held plan is being applied",
    discarded: "Held run discarded: nothing was written",
    retryFailed: "Failed to retry the failed mappings",
    nothingToRetry: "Cannot retry: this run has no failed mappings",
    retryMappingsGone: "Cannot retry: none of this run's failed mappings exists any more",
    retryOptionsUnknown:
      "Cannot retry: this run was recorded before sync options were kept; start a sync from Product Mapping instead",
    stillRunning: "Cannot retry: this run is still running",
  },
  dashboard: { fetchFailed: "Failed to fetch the dashboard" },
  connections: {
    acumaticaUpdateFailed: "Failed to update Acumatica connection",
    shopifyUpdateFailed: "Failed to update Shopify connection",
    acumaticaTestFailed: "Acumatica connection test failed",
    shopifyTestFailed: "Shopify connection test failed",
    acumaticaUpdated: "Acumatica connection settings updated successfully",
    shopifyUpdated: "Shopify connection settings updated successfully",
    acumaticaTestOk: "Acumatica connection test successful",
    shopifyTestOk: "Shopify connection test successful",
  },
  tokens: {
    createFailed: "Failed to create API token",
    fetchFailed: "Failed to fetch API tokens",
    revokeFailed: "Failed to revoke API token",
    created: "API token created. Copy it now: it will not be shown again.",
    revoked: "API token revoked",
    notFound: "API token not found",
    invalid: "This API token is invalid, expired or revoked.",
    noSignOut: "Personal API tokens cannot sign out: revoke the token in Settings > API Tokens instead.",
  },
  notifications: {
    fetchFailed: "Failed to fetch notifications",
    readFailed: "Failed to mark the notification as read",
    readAllFailed: "Failed to mark notifications as read",
    notFound: "Notification not found",
    settingsFetchFailed: "Failed to fetch notification settings",
    settingsFailed: "Failed to update notification settings",
    settingsSaved: "Notification settings saved successfully",
    secretFailed: "Failed to create the webhook signing secret",
    secretCreated: "Webhook signing secret created. Copy it now: it will not be shown again.",
    deliveriesFailed: "Failed to fetch alert deliveries",
  },
  access: {
    subscriptionRequired: "A subscription is required to access this service.",
    loginRequired: "Please log in to access this service.",
  },
  generic: {
    requestFailed: "Request failed",
    timeout: "The server did not answer within 30 seconds",
    offline: "You are offline: the server cannot be reached",
    databaseBusy: "The database is busy. Please try again in a moment.",
    stopping: "The server is restarting. Please try again in a few seconds.",
  },
  drift: {
    fetchFailed: "Failed to fetch drift",
    downloadFailed: "Failed to download the drift list",
    fixFailed: "Failed to fix drift",
    nothingToFix: "Nothing to fix: no mapping differs from the ERP since the latest check.",
  },
  idempotency: {
    invalidKey: "Idempotency-Key must be 1 to 255 printable ASCII characters",
    reused:
      "This Idempotency-Key was already used for a different request (another method, path or body): send a new Idempotency-Key for a new request.",
    inProgress: "A request with this Idempotency-Key is still being processed. Try again in a moment.",
  },
} as const;

/**
 * The 429 answers of the attempt limits: what was refused and how long to wait (the Retry-After
 * header says the same). Waits under a minute are said in seconds, longer ones in whole minutes.
 */
export function tooManyAttempts(
  action: "signIn" | "register" | "passwordCheck",
  waitSeconds: number,
): string {
  const seconds = Math.max(1, Math.ceil(waitSeconds));
  const minutes = Math.ceil(seconds / 60);
  const wait =
    seconds < 60
      ? `${seconds} second${seconds === 1 ? "" : "s"}`
      : `${minutes} minute${minutes === 1 ? "" : "s"}`;
  const what = {
    signIn: "Too many sign-in attempts.",
    register: "Too many accounts created from this address.",
    passwordCheck: "Too many wrong current passwords.",
  }[action];
  return `${what} Please wait ${wait} and try again.`;
}

/**
 * The 403 of an endpoint a personal API token may not call: it names what was refused and how to
 * do it instead (a signed-in session).
 */
export function personalTokenCannot(action: string): string {
  return `Personal API tokens cannot ${action}. Sign in with your email and password to do this.`;
}

/**
 * Why a run sends no prices: Shopify would read the ERP's numbers in its own currency. Shown on
 * the run's mappings and, before any run, in Settings.
 */
export function priceCurrencyMismatch(currencies: { shopify: string; acumatica: string }): string {
  return `Price sync skipped: the Shopify store sells in ${currencies.shopify} but Acumatica prices are in ${currencies.acumatica}.`;
}

/** Settings' warning before any run: the same mismatch, said ahead of time. */
export function priceCurrencyWarning(currencies: { shopify: string; acumatica: string }): string {
  return `Prices will not sync: the Shopify store sells in ${currencies.shopify} but Acumatica prices are in ${currencies.acumatica}. Quantities still sync.`;
}

/** The 400 of a safety limit out of bounds: the field and its rule (0 turns the limit off). */
export function safetyLimitRule(field: "maxPriceChangePercent" | "maxZeroedPercent", max: number): string {
  return `${field} must be a whole number from 0 to ${max} (0 turns the limit off)`;
}

/** The same rule under the form's labelled field. */
export function safetyLimitFormRule(max: number): string {
  return `Enter a whole number from 0 to ${max} (0 turns the limit off)`;
}

/** Why a run was held: the ERP answered nothing for a scope that has mappings. */
export const ERP_RETURNED_NOTHING = "Acumatica returned no items";

/** Why a run was held: one price field of one SKU moves by more than the limit. */
export function priceChangeOverLimit(change: {
  field: "price" | "compareAtPrice";
  sku: string;
  percent: number;
  limit: number;
}): string {
  const what = change.field === "price" ? "Price" : "Compare-at price";
  return `${what} of ${change.sku} would change by ${change.percent} % (limit ${change.limit} %)`;
}

/** The prices over the limit that a held run's reasons do not name one by one. */
export function morePriceChangesOverLimit(count: number, limit: number): string {
  return `${count} more ${count === 1 ? "price" : "prices"} would change by more than ${limit} %`;
}

/** Why a run was held: too large a share of the scope's quantities would drop to zero. */
export function zeroedOverLimit(share: { percent: number; limit: number }): string {
  return `${share.percent} % of quantities would be set to 0 (limit ${share.limit} %)`;
}

/** The 409 of approve or discard on a run that is not (or no longer) held for review. */
export function notHeldForReview(action: "approve" | "discard", state: string): string {
  if (state === "approved") return `Cannot ${action}: this run was already approved`;
  if (state === "discarded") return `Cannot ${action}: this run was already discarded`;
  return `Cannot ${action}: only a run held for review can be approved or discarded; this one is ${state}`;
}

/**
 * An approved plan's item that Shopify no longer holds as the plan saw it: not written, so a
 * change made since (by a person or another app) is never silently overwritten.
 */
export function changedSinceHeld(change: {
  field: "price" | "compareAtPrice" | "quantity";
  planned: string;
  now: string;
}): string {
  const what = { price: "price", compareAtPrice: "compare-at price", quantity: "quantity" }[change.field];
  return `Changed in Shopify since the run was held: the ${what} is now ${change.now} (the plan saw ${change.planned}); not written. Sync again to plan it anew.`;
}

/** A sync job's closing message when the safety limits held it: the first reason and where to act. */
export function heldForReview(reasons: readonly string[]): string {
  const more = reasons.length > 1 ? ` (and ${reasons.length - 1} more)` : "";
  return `Held for review: ${reasons[0] ?? "a safety limit was reached"}${more}. Nothing was written; approve or discard it in Execution History.`;
}

/** A dry run's closing note when the real run would be held. */
export function wouldBeHeld(reasons: readonly string[]): string {
  const more = reasons.length > 1 ? ` (and ${reasons.length - 1} more)` : "";
  return `A real run would be held for review: ${reasons[0] ?? "a safety limit was reached"}${more}`;
}

/** "Your Starter plan" (or "Your plan" when Stripe gave no plan name). */
function yourPlan(plan: string | null): string {
  return plan ? `Your ${plan} plan` : "Your plan";
}

/**
 * The 403 of a schedule more frequent than the plan allows, e.g. 'Your Starter plan includes daily
 * schedules; upgrade to Growth for schedules every 15 minutes.' (`allows` from scheduleFrequencyText).
 */
export function planScheduleLimit(input: {
  plan: string | null;
  allows: string;
  upgrade?: { plan: string; allows: string } | undefined;
}): string {
  const base = `${yourPlan(input.plan)} includes ${input.allows}`;
  return input.upgrade
    ? `${base}; upgrade to ${input.upgrade.plan} for ${input.upgrade.allows}.`
    : `${base}.`;
}

/**
 * The 403 of a mapping past the plan's number, e.g. 'Your Starter plan includes up to 500 mapped
 * products (you have 500); upgrade to Growth for up to 5,000 mapped products.'
 */
export function planMappingLimit(input: {
  plan: string | null;
  max: number;
  mapped: number;
  upgrade?: { plan: string; max: number | null } | undefined;
}): string {
  const count = (value: number) => value.toLocaleString("en-US");
  const base = `${yourPlan(input.plan)} includes up to ${count(input.max)} mapped products (you have ${count(input.mapped)})`;
  if (!input.upgrade) return `${base}.`;
  const more =
    input.upgrade.max === null
      ? "unlimited mapped products"
      : `up to ${count(input.upgrade.max)} mapped products`;
  return `${base}; upgrade to ${input.upgrade.plan} for ${more}.`;
}

/** Why an active schedule does not run (Mapping Schedules' Next Run): the plan's 403 text after it. */
export function schedulePausedByPlan(limitMessage: string): string {
  return `Not running: ${limitMessage}`;
}

/** Location mapping rules (Settings > Mapping, 'Location Mapping'), each naming the id that breaks it. */
export const LOCATION_RULES = {
  locationTwice: (id: string) => `locations must name each Shopify location once (${id} is there twice)`,
  warehouseTwice: (id: string) =>
    `A warehouse may feed only one location: ${id} feeds two (choose one location for it)`,
  unknownLocation: (id: string) =>
    `shopifyLocationId must be an active location of the store: ${id} is not (pull the Shopify catalog if it is new)`,
  unknownWarehouse: (id: string) =>
    `warehouseIds must name Acumatica warehouses: ${id} is not one (see GET /api/acumatica/warehouses)`,
  /** The skip reason of one location an item is not stocked at. */
  notStockedAt: (name: string) => `Not stocked at ${name}`,
} as const;

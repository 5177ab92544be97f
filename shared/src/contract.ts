import * as v from "valibot";
import { MESSAGES, personalTokenCannot } from "./messages.ts";
import {
  AuthResultSchema,
  ChangePasswordInputSchema,
  LoginInputSchema,
  MeSchema,
  RefreshInputSchema,
  RegisterInputSchema,
} from "./schemas/auth.ts";
import {
  CancelSubscriptionInputSchema,
  CheckoutSessionSchema,
  CreateSubscriptionInputSchema,
  PlanSchema,
  PriceIdInputSchema,
  SubscriptionSchema,
  SubscriptionStatusQuerySchema,
  SubscriptionStatusSchema,
} from "./schemas/billing.ts";
import {
  AcumaticaProductChangesSchema,
  ChangesQuerySchema,
  HistoryChangesSchema,
  MappingChangesSchema,
  ScheduleChangesSchema,
  ShopifyProductChangesSchema,
  UnmappedChangesSchema,
} from "./schemas/changes.ts";
import { IdParamsSchema, OkSchema } from "./schemas/common.ts";
import {
  AcumaticaConnectionInputSchema,
  AcumaticaConnectionSchema,
  ConnectionsSchema,
  ShopifyConnectionInputSchema,
  ShopifyConnectionSchema,
} from "./schemas/connections.ts";
import { DashboardQuerySchema, DashboardSchema } from "./schemas/dashboard.ts";
import { DriftSummarySchema } from "./schemas/drift.ts";
import {
  ExecutionHistoryListSchema,
  ExecutionHistoryQuerySchema,
  ExecutionHistorySchema,
  HeldPlanQuerySchema,
  HeldPlanSchema,
} from "./schemas/history.ts";
import { JobSchema } from "./schemas/jobs.ts";
import {
  AcumaticaWarehouseListSchema,
  LocationMappingResultSchema,
  LocationMappingSchema,
  ShopifyLocationListSchema,
} from "./schemas/locations.ts";
import {
  MappingHistoryQuerySchema,
  MappingHistorySchema,
  MappingIdsInputSchema,
  MappingInputSchema,
  MappingListSchema,
  MappingSchema,
  MappingSelectorSchema,
  SelectorQuerySchema,
  SyncMappingInputSchema,
  SyncMappingsInputSchema,
  SyncRunSchema,
  UnmappedQuerySchema,
  UnmappedSchema,
} from "./schemas/mapping.ts";
import {
  AlertDeliveryListSchema,
  NotificationListQuerySchema,
  NotificationListSchema,
  NotificationSchema,
  NotificationSettingsInputSchema,
  NotificationSettingsSchema,
  UnreadCountSchema,
  WebhookSecretSchema,
} from "./schemas/notifications.ts";
import {
  AcumaticaProductListSchema,
  AcumaticaProductQuerySchema,
  ShopifyProductListSchema,
  ShopifyProductQuerySchema,
} from "./schemas/products.ts";
import {
  ScheduleInputSchema,
  ScheduleListQuerySchema,
  ScheduleListSchema,
  ScheduleSchema,
  ScheduleStatusInputSchema,
} from "./schemas/schedules.ts";
import {
  PriceMappingResultSchema,
  PriceMappingSchema,
  QuantityMappingResultSchema,
  QuantityMappingSchema,
  SafetyLimitsSchema,
  SettingsSchema,
} from "./schemas/settings.ts";
import { HealthSchema, SandboxConnectionSchema } from "./schemas/system.ts";
import { CreatedTokenSchema, CreateTokenInputSchema, PersonalTokenListSchema } from "./schemas/tokens.ts";

/** Who may call an endpoint: anyone, a signed-in user, or a user with an active/trialing subscription. */
export type Access = "public" | "user" | "subscriber";
export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/**
 * Why an endpoint can fail beyond what its access, inputs and path already say (the OpenAPI
 * document derives 400, 401, 403, 404, 413 and the busy database's 503 from those). Only what the
 * endpoint really answers: the document lists exactly these.
 */
export type Failure =
  /** 401 from a public endpoint: a wrong password, or a token that cannot be renewed. */
  | "credentials"
  /** 404 for something not in the path: a saved connection, a row named in the body. */
  | "missing"
  /** 409: the change collides with what is there (the message names it). */
  | "conflict"
  /** 409 with `jobId`: a job of this kind is already running for the user. */
  | "job-running"
  /** 429 with `Retry-After`: too many attempts. */
  | "rate-limited"
  /** 402: Stripe declined the card. */
  | "payment"
  /** 403: the plan does not include this (a schedule too frequent, a mapping past its number). */
  | "plan"
  /** 502: the outside system failed; the message says which and why. */
  | "shopify"
  | "acumatica"
  | "stripe"
  /** 503: no Stripe key is configured. */
  | "billing"
  /** 503: the health check's database does not answer. */
  | "database-down";

export interface Endpoint {
  method: HttpMethod;
  /** Path under `/api`, with `:name` parameters. */
  path: string;
  /** One line for the API reference. */
  summary: string;
  /** What it does and when it fails, for the API reference. */
  description: string;
  access: Access;
  params?: v.GenericSchema;
  query?: v.GenericSchema;
  body?: v.GenericSchema;
  /** Schema of `data` in `{ data, message? }`, or of the whole body when `envelope` is "top-level". */
  output: v.GenericSchema;
  /**
   * "csv": the success answer is not JSON but a `text/csv` attachment (its handler answers the
   * Response itself, so a long file streams); `output` then describes it as text.
   */
  envelope?: "data" | "top-level" | "csv";
  /** The catalogue message a client shows when the server gives none. */
  defaultError: string;
  failures?: readonly Failure[];
  /**
   * The 403 a personal API token gets here: the action needs a signed-in session (a leaked token
   * must not mint successors, hide itself, change the password or touch billing).
   */
  sessionOnly?: string;
  /** False for an endpoint that answers without the database (it cannot answer 503 busy). */
  database?: false;
  /**
   * The answer holds a credential shown once (a new API token): it is never stored, so an
   * `Idempotency-Key` is not honoured here (a stored answer would keep the secret in the clear).
   */
  answersSecret?: true;
}

function endpoint<const E extends Endpoint>(definition: E): E {
  return definition;
}

/**
 * A signed-in write whose answer may be stored: the edge honours an `Idempotency-Key` header on it
 * (edge/src/idempotency/).
 */
export function takesIdempotencyKey(endpoint: Endpoint): boolean {
  return endpoint.method !== "GET" && endpoint.access !== "public" && endpoint.answersSecret !== true;
}

const JobStartedSchema = v.object({ job: JobSchema });

/**
 * Every endpoint of spec section 7 (plus logout, me, health, jobs, sandbox and the multi-mapping
 * sync). The edge registers its handlers against this table, the typed client is derived from it:
 * one source, no drift.
 */
export const contract = {
  health: endpoint({
    method: "GET",
    path: "/health",
    summary: "Check the service",
    description: "Answers `ok` with the running version once the database answers a query. Needs no token.",
    access: "public",
    output: HealthSchema,
    defaultError: MESSAGES.generic.requestFailed,
    failures: ["database-down"],
  }),
  sandbox: endpoint({
    method: "GET",
    path: "/sandbox",
    summary: "Read the sandbox demo connection",
    description:
      "Only in sandbox mode (the edge started with `SANDBOX_URL`): the demo Shopify and Acumatica connection, so Settings and scripts can connect at once. Otherwise the path answers 404.",
    access: "public",
    output: SandboxConnectionSchema,
    defaultError: MESSAGES.generic.requestFailed,
    failures: ["missing"],
    database: false,
  }),

  login: endpoint({
    method: "POST",
    path: "/auth/login",
    summary: "Sign in",
    description:
      "Checks the email and password and answers the user with a new Bearer token (a JWT). Attempts are limited per address and per account: past the limit the answer is 429 with `Retry-After`.",
    access: "public",
    body: LoginInputSchema,
    output: AuthResultSchema,
    defaultError: MESSAGES.auth.loginFailed,
    failures: ["credentials", "rate-limited"],
  }),
  register: endpoint({
    method: "POST",
    path: "/auth/register",
    summary: "Create an account",
    description:
      "Creates the user and signs them in: answers the user with a Bearer token. An email already registered answers 409; registrations are limited per address (429 with `Retry-After`).",
    access: "public",
    body: RegisterInputSchema,
    output: AuthResultSchema,
    defaultError: MESSAGES.auth.registrationFailed,
    failures: ["conflict", "rate-limited"],
  }),
  refresh: endpoint({
    method: "POST",
    path: "/auth/refresh",
    summary: "Renew a token",
    description:
      "Exchanges a token whose session is still open for a new one with a fresh expiry; an expired, revoked or forged token answers 401.",
    access: "public",
    body: RefreshInputSchema,
    output: AuthResultSchema,
    defaultError: MESSAGES.auth.refreshFailed,
    failures: ["credentials"],
  }),
  logout: endpoint({
    method: "POST",
    path: "/auth/logout",
    summary: "Sign out",
    description: "Ends the session of the Bearer token: the token stops working at once.",
    access: "user",
    output: OkSchema,
    defaultError: MESSAGES.generic.requestFailed,
    sessionOnly: MESSAGES.tokens.noSignOut,
  }),
  changePassword: endpoint({
    method: "PUT",
    path: "/auth/password",
    summary: "Change the password",
    description:
      "Checks the current password (a wrong one answers 400 naming `currentPassword`) and sets the new one. Attempts are limited like sign-in (429 with `Retry-After`).",
    access: "user",
    body: ChangePasswordInputSchema,
    output: OkSchema,
    defaultError: MESSAGES.generic.requestFailed,
    failures: ["rate-limited"],
    sessionOnly: personalTokenCannot("change the password"),
  }),
  me: endpoint({
    method: "GET",
    path: "/auth/me",
    summary: "Read the signed-in user",
    description: "The user the Bearer token belongs to, with their subscription and connection state.",
    access: "user",
    output: MeSchema,
    defaultError: MESSAGES.generic.requestFailed,
  }),

  getConnections: endpoint({
    method: "GET",
    path: "/users/connections",
    summary: "Read the connections",
    description:
      "The saved Shopify and Acumatica connections. Secrets are never returned: `passwordSet` and `accessTokenSet` say whether one is saved.",
    access: "user",
    output: ConnectionsSchema,
    defaultError: MESSAGES.generic.requestFailed,
  }),
  saveAcumatica: endpoint({
    method: "POST",
    path: "/users/acumatica",
    summary: "Save the Acumatica connection",
    description:
      "Creates or replaces the Acumatica connection. A blank password keeps the saved one; the password is encrypted at rest. Changing what the connection logs in with clears `isVerified` until the next successful test.",
    access: "user",
    body: AcumaticaConnectionInputSchema,
    output: AcumaticaConnectionSchema,
    defaultError: MESSAGES.connections.acumaticaUpdateFailed,
  }),
  saveShopify: endpoint({
    method: "POST",
    path: "/users/shopify",
    summary: "Save the Shopify connection",
    description:
      "Creates or replaces the Shopify connection. A blank access token keeps the saved one; the token is encrypted at rest. Changing what the connection logs in with clears `isVerified` until the next successful test.",
    access: "user",
    body: ShopifyConnectionInputSchema,
    output: ShopifyConnectionSchema,
    defaultError: MESSAGES.connections.shopifyUpdateFailed,
  }),
  testAcumatica: endpoint({
    method: "POST",
    path: "/users/acumatica/test",
    summary: "Test the Acumatica connection",
    description:
      "Logs in to Acumatica with the saved connection, logs out again and records the outcome in `isVerified`. 404 when no connection is saved; 502 with Acumatica's own reason when the login fails.",
    access: "user",
    output: AcumaticaConnectionSchema,
    defaultError: MESSAGES.connections.acumaticaTestFailed,
    failures: ["missing", "conflict", "acumatica"],
  }),
  testShopify: endpoint({
    method: "POST",
    path: "/users/shopify/test",
    summary: "Test the Shopify connection",
    description:
      "Reads the shop with the saved connection and records the outcome in `isVerified`. 404 when no connection is saved; 502 with Shopify's own reason when the call fails.",
    access: "user",
    output: ShopifyConnectionSchema,
    defaultError: MESSAGES.connections.shopifyTestFailed,
    failures: ["missing", "conflict", "shopify"],
  }),

  plans: endpoint({
    method: "GET",
    path: "/subscriptions/plans",
    summary: "List the plans",
    description: "The subscription plans on offer, read from Stripe.",
    access: "user",
    output: v.array(PlanSchema),
    defaultError: MESSAGES.subscription.fetchPlansFailed,
    failures: ["stripe", "billing"],
    sessionOnly: personalTokenCannot("view billing plans"),
  }),
  subscriptionStatus: endpoint({
    method: "GET",
    path: "/subscriptions/status",
    summary: "Read the subscription",
    description:
      "The user's subscription and whether it grants access. After a Stripe Checkout, pass its `session_id`: the subscription it started is read from Stripe at once, before its webhook arrives.",
    access: "user",
    query: SubscriptionStatusQuerySchema,
    output: SubscriptionStatusSchema,
    defaultError: MESSAGES.subscription.fetchStatusFailed,
    failures: ["missing", "stripe", "billing"],
    sessionOnly: personalTokenCannot("view or verify the subscription"),
  }),
  createSubscription: endpoint({
    method: "POST",
    path: "/subscriptions/create",
    summary: "Subscribe with a payment method",
    description:
      "Creates a Stripe subscription to the plan `priceId`, paid with `paymentMethodId`. One paid subscription per user (409 while one still bills) and one billing change at a time (409 while another runs); a declined card answers 402.",
    access: "user",
    body: CreateSubscriptionInputSchema,
    output: SubscriptionSchema,
    defaultError: MESSAGES.subscription.createFailed,
    failures: ["conflict", "payment", "stripe", "billing"],
    sessionOnly: personalTokenCannot("start a subscription"),
  }),
  cancelSubscription: endpoint({
    method: "POST",
    path: "/subscriptions/cancel",
    summary: "Cancel the subscription",
    description:
      "Cancels at the end of the billing period (`cancelAtPeriodEnd`) or at once. 404 when there is no subscription, 409 when it has already ended.",
    access: "user",
    body: CancelSubscriptionInputSchema,
    output: SubscriptionSchema,
    defaultError: MESSAGES.subscription.cancelFailed,
    failures: ["missing", "conflict", "stripe", "billing"],
    sessionOnly: personalTokenCannot("cancel the subscription"),
  }),
  updateSubscription: endpoint({
    method: "POST",
    path: "/subscriptions/update",
    summary: "Switch plans",
    description:
      "Moves the subscription to the plan `priceId`. 404 when there is no subscription, 409 when it has ended; a declined card answers 402.",
    access: "user",
    body: PriceIdInputSchema,
    output: SubscriptionSchema,
    defaultError: MESSAGES.subscription.updateFailed,
    failures: ["missing", "conflict", "payment", "stripe", "billing"],
    sessionOnly: personalTokenCannot("change the subscription plan"),
  }),
  createCheckoutSession: endpoint({
    method: "POST",
    path: "/subscriptions/create-checkout-session",
    summary: "Start a Stripe Checkout",
    description:
      "Answers the URL of a Stripe Checkout page for the plan `priceId`. An open checkout for the same plan is handed out again; open ones for other plans are closed, so at most one can be paid.",
    access: "user",
    body: PriceIdInputSchema,
    output: CheckoutSessionSchema,
    defaultError: MESSAGES.subscription.checkoutFailed,
    failures: ["conflict", "stripe", "billing"],
    sessionOnly: personalTokenCannot("open a checkout"),
  }),
  resumeSubscription: endpoint({
    method: "POST",
    path: "/subscriptions/resume",
    summary: "Resume the subscription",
    description:
      "Undoes a cancellation at the period's end while the period lasts. 404 when there is no subscription, 409 when it has ended.",
    access: "user",
    output: SubscriptionSchema,
    defaultError: MESSAGES.subscription.resumeFailed,
    failures: ["missing", "conflict", "stripe", "billing"],
    sessionOnly: personalTokenCannot("resume the subscription"),
  }),

  shopifyProducts: endpoint({
    method: "GET",
    path: "/shopify/products",
    summary: "List the Shopify products",
    description:
      "A page of the cached Shopify catalog (filled by a pull), searched by SKU and sorted. Calls no Shopify API.",
    access: "subscriber",
    query: ShopifyProductQuerySchema,
    output: ShopifyProductListSchema,
    defaultError: MESSAGES.products.fetchShopifyFailed,
  }),
  acumaticaProducts: endpoint({
    method: "GET",
    path: "/acumatica/products",
    summary: "List the Acumatica products",
    description:
      "A page of the cached Acumatica catalog (filled by a pull), searched by SKU and sorted. Calls no Acumatica API. The path with a trailing slash answers the same.",
    access: "subscriber",
    query: AcumaticaProductQuerySchema,
    output: AcumaticaProductListSchema,
    defaultError: MESSAGES.products.fetchAcumaticaFailed,
  }),
  syncShopifyProducts: endpoint({
    method: "POST",
    path: "/shopify/products/sync",
    summary: "Pull the Shopify catalog",
    description:
      "Starts a job that reads every variant from Shopify (a bulk export for a large store) and replaces the cached catalog; its result is a `ShopifyPullResult`. Answers the job at once: follow it with `GET /jobs/{id}` or `GET /jobs/{id}/events`. 404 when no Shopify connection is saved; 409 names the pull already running in `jobId`.",
    access: "subscriber",
    output: JobStartedSchema,
    defaultError: MESSAGES.products.syncShopifyFailed,
    failures: ["missing", "conflict", "job-running"],
  }),
  syncAcumaticaProducts: endpoint({
    method: "POST",
    path: "/acumatica/products/sync",
    summary: "Pull the Acumatica catalog",
    description:
      "Starts a job that reads every stock and non-stock item and their warehouse quantities from Acumatica and replaces the cached catalog; its result is an `AcumaticaPullResult`. Answers the job at once: follow it with `GET /jobs/{id}` or `GET /jobs/{id}/events`. 404 when no Acumatica connection is saved; 409 names the pull already running in `jobId`.",
    access: "subscriber",
    output: JobStartedSchema,
    defaultError: MESSAGES.products.syncAcumaticaFailed,
    failures: ["missing", "conflict", "job-running"],
  }),
  shopifyLocations: endpoint({
    method: "GET",
    path: "/shopify/locations",
    summary: "List the Shopify locations",
    description:
      "The store's locations, deactivated ones included (`isActive` false), with the primary one marked. Read with the catalog pull and kept with it; read from Shopify now when none are kept. 404 when no Shopify connection is saved; 502 with Shopify's reason when the read fails.",
    access: "user",
    output: ShopifyLocationListSchema,
    defaultError: MESSAGES.settings.locationsFailed,
    failures: ["missing", "shopify"],
  }),
  acumaticaWarehouses: endpoint({
    method: "GET",
    path: "/acumatica/warehouses",
    summary: "List the Acumatica warehouses",
    description:
      "The ERP's warehouses (the Warehouse entity: WarehouseID and Description). Read with the catalog pull and kept with it; read from Acumatica now when none are kept. 404 when no Acumatica connection is saved; 502 with Acumatica's reason when the read fails.",
    access: "user",
    output: AcumaticaWarehouseListSchema,
    defaultError: MESSAGES.settings.warehousesFailed,
    failures: ["missing", "acumatica"],
  }),

  autoMap: endpoint({
    method: "POST",
    path: "/mapping/exact-sku",
    summary: "Map identical SKUs",
    description:
      "Starts a job that maps every unmapped Shopify variant to the Acumatica item with the identical SKU; SKUs that appear twice on either side are skipped and listed, and pairs past the plan's number of mapped products are counted in `overPlanLimit`. Its result is an `AutoMapResult`. Answers the job at once; 409 names the run already going in `jobId`.",
    access: "subscriber",
    output: JobStartedSchema,
    defaultError: MESSAGES.mapping.autoMapFailed,
    failures: ["job-running"],
  }),
  manualMap: endpoint({
    method: "POST",
    path: "/mapping/manual",
    summary: "Map a variant to an item",
    description:
      "Maps the Shopify variant `shopifyVariantId` to the Acumatica item `acumaticaProductId`. Each belongs to at most one mapping: 409 names the mapping in the way; 404 when either is not in the cached catalogs; 403 when the plan's number of mapped products is reached.",
    access: "subscriber",
    body: MappingInputSchema,
    output: MappingSchema,
    defaultError: MESSAGES.mapping.manualMapFailed,
    failures: ["missing", "conflict", "plan"],
  }),
  unmapped: endpoint({
    method: "GET",
    path: "/mapping/unmapped",
    summary: "List the unmapped products",
    description:
      "A bounded page of the Shopify variants and of the Acumatica items that are in no mapping, with the total of each list.",
    access: "subscriber",
    query: UnmappedQuerySchema,
    output: UnmappedSchema,
    defaultError: MESSAGES.mapping.fetchUnmappedFailed,
  }),
  mappingHistory: endpoint({
    method: "GET",
    path: "/mapping/history",
    summary: "List the mappings",
    description:
      "A page of the user's mappings, newest first, searched by either SKU, each with its last sync.",
    access: "subscriber",
    query: MappingHistoryQuerySchema,
    output: MappingHistorySchema,
    defaultError: MESSAGES.mapping.fetchHistoryFailed,
  }),
  mappingSelector: endpoint({
    method: "GET",
    path: "/mapping/selector",
    summary: "Pick mappings",
    description: "A page of 20 mappings for the schedule editor's selector, searched by SKU.",
    access: "subscriber",
    query: SelectorQuerySchema,
    output: MappingSelectorSchema,
    defaultError: MESSAGES.mapping.fetchMappingsFailed,
  }),
  mappingsByIds: endpoint({
    method: "POST",
    path: "/mapping/by-ids",
    summary: "Read mappings by id",
    description:
      "The user's mappings among `mappingIds` (the schedule editor reads its selection with it); ids that are not the user's are left out.",
    access: "subscriber",
    body: MappingIdsInputSchema,
    output: MappingListSchema,
    defaultError: MESSAGES.mapping.fetchByIdsFailed,
  }),
  updateMapping: endpoint({
    method: "PUT",
    path: "/mapping/:id",
    summary: "Change a mapping",
    description:
      "Points the mapping at another variant or item, under the same one-mapping-each rule as creating one: 409 names the mapping in the way.",
    access: "subscriber",
    params: IdParamsSchema,
    body: MappingInputSchema,
    output: MappingSchema,
    defaultError: MESSAGES.mapping.updateFailed,
    failures: ["conflict"],
  }),
  deleteMapping: endpoint({
    method: "DELETE",
    path: "/mapping/:id",
    summary: "Delete a mapping",
    description: "Removes the mapping; the execution history that names it stays.",
    access: "subscriber",
    params: IdParamsSchema,
    output: OkSchema,
    defaultError: MESSAGES.mapping.deleteFailed,
  }),
  syncMapping: endpoint({
    method: "POST",
    path: "/mapping/:id/sync",
    summary: "Sync one mapping",
    description:
      "Syncs this mapping now and answers each field's change: the ERP's price, MSRP and quantity go to Shopify as `syncOptions` says. With `dryRun` it answers the plan and writes nothing; otherwise the run is recorded in execution history. 502 names Shopify or Acumatica when one of them fails.",
    access: "subscriber",
    params: IdParamsSchema,
    body: SyncMappingInputSchema,
    output: SyncRunSchema,
    defaultError: MESSAGES.mapping.syncFailed,
    failures: ["shopify", "acumatica"],
  }),
  syncMappings: endpoint({
    method: "POST",
    path: "/mapping/sync",
    summary: "Sync many mappings",
    description:
      "Starts a job that syncs the mappings in `mappingIds`, or every mapping when it is left out, as one execution-history run; its result is a `SyncJobResult`. With `dryRun` it ends with the planned changes and writes nothing to Shopify. Either way it records which of its mappings still differ from the ERP (`GET /drift`). A sync of every mapping reads only the mappings whose ERP item or Shopify variant changed since the last such sync succeeded (its result says since when in `changesSince`), and reads everything when settings or options changed, once a day, or with `reconcile`. 404 lists the ids that are not the user's; 409 names the sync already running in `jobId`.",
    access: "subscriber",
    body: SyncMappingsInputSchema,
    output: JobStartedSchema,
    defaultError: MESSAGES.mapping.syncFailed,
    failures: ["missing", "job-running"],
  }),

  createSchedule: endpoint({
    method: "POST",
    path: "/mapping-schedule",
    summary: "Create a schedule",
    description:
      "A schedule syncs its mappings at its times (hourly, daily, weekly or monthly), read as wall-clock times in its IANA `timezone`. An active schedule more frequent than the plan includes answers 403 naming the plan.",
    access: "subscriber",
    body: ScheduleInputSchema,
    output: ScheduleSchema,
    defaultError: MESSAGES.schedules.createFailed,
    failures: ["plan"],
  }),
  listSchedules: endpoint({
    method: "GET",
    path: "/mapping-schedule",
    summary: "List the schedules",
    description: "A page of the user's schedules with their next run, searched by name.",
    access: "subscriber",
    query: ScheduleListQuerySchema,
    output: ScheduleListSchema,
    defaultError: MESSAGES.schedules.fetchFailed,
  }),
  setScheduleStatus: endpoint({
    method: "PUT",
    path: "/mapping-schedule/:id/status",
    summary: "Turn a schedule on or off",
    description:
      "Sets `status`; an active schedule gets its next run time, an inactive one none. Turning on a schedule more frequent than the plan includes answers 403 naming the plan.",
    access: "subscriber",
    params: IdParamsSchema,
    body: ScheduleStatusInputSchema,
    output: ScheduleSchema,
    defaultError: MESSAGES.schedules.statusFailed,
    failures: ["plan"],
  }),
  updateSchedule: endpoint({
    method: "PUT",
    path: "/mapping-schedule/:id",
    summary: "Change a schedule",
    description:
      "Replaces the schedule's settings; its next run is computed again. An active schedule more frequent than the plan includes answers 403 naming the plan.",
    access: "subscriber",
    params: IdParamsSchema,
    body: ScheduleInputSchema,
    output: ScheduleSchema,
    defaultError: MESSAGES.schedules.updateFailed,
    failures: ["plan"],
  }),
  deleteSchedule: endpoint({
    method: "DELETE",
    path: "/mapping-schedule/:id",
    summary: "Delete a schedule",
    description: "Removes the schedule; the runs it made stay in execution history.",
    access: "subscriber",
    params: IdParamsSchema,
    output: OkSchema,
    defaultError: MESSAGES.schedules.deleteFailed,
  }),

  settings: endpoint({
    method: "GET",
    path: "/settings",
    summary: "Read the settings",
    description: "The quantity and price mapping settings together.",
    access: "user",
    output: SettingsSchema,
    defaultError: MESSAGES.settings.fetchFailed,
  }),
  quantityMapping: endpoint({
    method: "GET",
    path: "/settings/quantity-mapping",
    summary: "Read the quantity mapping",
    description: "Which Acumatica quantity sets which Shopify quantity.",
    access: "user",
    output: QuantityMappingResultSchema,
    defaultError: MESSAGES.settings.fetchFailed,
  }),
  saveQuantityMapping: endpoint({
    method: "PUT",
    path: "/settings/quantity-mapping",
    summary: "Save the quantity mapping",
    description: "Sets which Acumatica quantity sets which Shopify quantity; later syncs use it.",
    access: "user",
    body: QuantityMappingSchema,
    output: QuantityMappingResultSchema,
    defaultError: MESSAGES.settings.quantityFailed,
  }),
  priceMapping: endpoint({
    method: "GET",
    path: "/settings/price-mapping",
    summary: "Read the price mapping",
    description: "Which ERP prices go to the Shopify price and compare-at price.",
    access: "user",
    output: PriceMappingResultSchema,
    defaultError: MESSAGES.settings.fetchFailed,
  }),
  savePriceMapping: endpoint({
    method: "PUT",
    path: "/settings/price-mapping",
    summary: "Save the price mapping",
    description: "Sets which ERP prices go to the Shopify price and compare-at price; later syncs use it.",
    access: "user",
    body: PriceMappingSchema,
    output: PriceMappingResultSchema,
    defaultError: MESSAGES.settings.priceFailed,
  }),
  safetyLimits: endpoint({
    method: "GET",
    path: "/settings/safety",
    summary: "Read the safety limits",
    description:
      "When a run is held for review instead of written: a price (or compare-at price) moving by more than `maxPriceChangePercent`, or more than `maxZeroedPercent` of the run's quantities set to 0. 0 turns a limit off. Defaults 50 and 20. A run whose ERP answers no items at all for its mappings is always held.",
    access: "user",
    output: SafetyLimitsSchema,
    defaultError: MESSAGES.settings.fetchFailed,
  }),
  saveSafetyLimits: endpoint({
    method: "PUT",
    path: "/settings/safety",
    summary: "Save the safety limits",
    description:
      "Sets both limits as whole percentages: `maxPriceChangePercent` 0 to 1000, `maxZeroedPercent` 0 to 100, 0 turning one off. Scheduled runs, full syncs and sync jobs check them; a one-mapping sync from the Mapping screen is watched by its user and never held.",
    access: "user",
    body: SafetyLimitsSchema,
    output: SafetyLimitsSchema,
    defaultError: MESSAGES.settings.safetyFailed,
  }),
  saveLocationMapping: endpoint({
    method: "PUT",
    path: "/settings/location-mapping",
    summary: "Save the location mapping",
    description:
      "Sets which Acumatica warehouses feed each Shopify location: a quantity sync writes each mapped location with the chosen Acumatica quantity summed over its warehouses, and skips an item not stocked at a location ('Not stocked at {location}'). 400 names the rule broken: no location at all, a location twice, a warehouse feeding two locations, a location that is not an active location of the store, a warehouse Acumatica does not have. The ids are checked against the locations and warehouses last read (read now when none are known).",
    access: "user",
    body: LocationMappingSchema,
    output: LocationMappingResultSchema,
    defaultError: MESSAGES.settings.locationFailed,
    failures: ["missing", "shopify", "acumatica"],
  }),

  executionHistory: endpoint({
    method: "GET",
    path: "/execution-history",
    summary: "List the sync runs",
    description:
      "A page of execution history, newest first: each run's trigger, outcome and counts. Answers at the top level (`histories`, `total`, `page`, `totalPages`), not in `data`.",
    access: "subscriber",
    query: ExecutionHistoryQuerySchema,
    output: ExecutionHistoryListSchema,
    envelope: "top-level",
    defaultError: MESSAGES.history.fetchFailed,
  }),
  executionHistoryEntry: endpoint({
    method: "GET",
    path: "/execution-history/:id",
    summary: "Read one sync run",
    description:
      "One run with its outcome (`completed`, `partial`, `failed`, `held` or `running`), every failed mapping with the outside system's own error text (a run that failed as a whole lists every mapping in its scope), and every skipped mapping with its reason.",
    access: "subscriber",
    params: IdParamsSchema,
    output: ExecutionHistorySchema,
    defaultError: MESSAGES.history.fetchFailed,
  }),
  retryExecutionHistory: endpoint({
    method: "POST",
    path: "/execution-history/:id/retry",
    summary: "Retry a run's failed mappings",
    description:
      "Starts a job that syncs exactly the mappings this run failed (those that still exist), with the run's sync options, as a new execution-history run whose `retryOf` names this one; its result is a `SyncJobResult`. 400 when the run has no failed mappings, none of them exists any more, or it predates kept sync options; 409 names the sync already running in `jobId`, or says the run itself is still running.",
    access: "subscriber",
    params: IdParamsSchema,
    output: JobStartedSchema,
    defaultError: MESSAGES.history.retryFailed,
    failures: ["job-running", "conflict"],
  }),
  executionPlan: endpoint({
    method: "GET",
    path: "/execution-history/:id/plan",
    summary: "Read a held run's plan",
    description:
      "A page of the changes a run held by the safety limits would write: per mapping and field, the value Shopify held and the new one, and, once approved, what was done with each. 404 for a run that was not held.",
    access: "subscriber",
    params: IdParamsSchema,
    query: HeldPlanQuerySchema,
    output: HeldPlanSchema,
    defaultError: MESSAGES.history.fetchPlanFailed,
  }),
  approveExecution: endpoint({
    method: "POST",
    path: "/execution-history/:id/approve",
    summary: "Approve a held run",
    description:
      "Starts a job that writes exactly the held plan, each change only where Shopify still holds the value the plan saw; a change made in Shopify since is reported, not overwritten. The run's entry goes on to its outcome. 409 when the run is not held (already approved or discarded) or a sync is running (`jobId`).",
    access: "subscriber",
    params: IdParamsSchema,
    output: JobStartedSchema,
    defaultError: MESSAGES.history.approveFailed,
    failures: ["conflict", "job-running"],
  }),
  discardExecution: endpoint({
    method: "POST",
    path: "/execution-history/:id/discard",
    summary: "Discard a held run",
    description:
      "Drops a held run without writing anything: its entry stays as `discarded`, with its reasons and plan, as the record. 409 when the run is not held (already approved or discarded).",
    access: "subscriber",
    params: IdParamsSchema,
    output: ExecutionHistorySchema,
    defaultError: MESSAGES.history.discardFailed,
    failures: ["conflict"],
  }),

  dashboard: endpoint({
    method: "GET",
    path: "/dashboard",
    summary: "Read the dashboard",
    description:
      "Whether the store is in sync, in one call: the last run, the next scheduled run, runs with failures in the last 24 hours and 7 days, catalog and mapping counts, the plan's limits, and each of the last 30 days' runs with the items they synced, failed and skipped (calendar days in `timezone`, an IANA zone, UTC by default).",
    access: "subscriber",
    query: DashboardQuerySchema,
    output: DashboardSchema,
    defaultError: MESSAGES.dashboard.fetchFailed,
  }),

  job: endpoint({
    method: "GET",
    path: "/jobs/:id",
    summary: "Read a job",
    description:
      "A job's state and progress. Once it has succeeded, `result` holds what it did, shaped by its `kind`. For live progress open `GET /jobs/{id}/events`.",
    access: "user",
    params: IdParamsSchema,
    output: JobSchema,
    defaultError: MESSAGES.generic.requestFailed,
  }),

  // Personal API tokens (issue #17): Bearer tokens for scripts and the CLI. A call made with one
  // cannot reach these three (edge/src/tokens/scope.ts lists every endpoint a token may not use).
  createToken: endpoint({
    method: "POST",
    path: "/tokens",
    summary: "Create a personal API token",
    description:
      "Creates a long-lived Bearer token (`sbk_` and 43 base64url characters) for scripts, cron and the CLI, and answers it once: the server keeps only its SHA-256. `expiresInDays` (1 to 3650) sets its end; left out, it never expires. At most 50 per account (409). Needs a signed-in session: a personal token cannot create another (403).",
    access: "user",
    body: CreateTokenInputSchema,
    output: CreatedTokenSchema,
    defaultError: MESSAGES.tokens.createFailed,
    failures: ["conflict"],
    sessionOnly: personalTokenCannot("create API tokens"),
    answersSecret: true,
  }),
  listTokens: endpoint({
    method: "GET",
    path: "/tokens",
    summary: "List personal API tokens",
    description:
      "The user's personal API tokens with their visible `prefix`, creation, expiry and `lastUsedAt` (written at most once a minute); never the token itself. Needs a signed-in session (403 for a personal token).",
    access: "user",
    output: PersonalTokenListSchema,
    defaultError: MESSAGES.tokens.fetchFailed,
    sessionOnly: personalTokenCannot("list API tokens"),
  }),
  revokeToken: endpoint({
    method: "DELETE",
    path: "/tokens/:id",
    summary: "Revoke a personal API token",
    description:
      "Deletes the token: the next request made with it answers 401. Another user's token id answers 404. Needs a signed-in session (403 for a personal token).",
    access: "user",
    params: IdParamsSchema,
    output: OkSchema,
    defaultError: MESSAGES.tokens.revokeFailed,
    sessionOnly: personalTokenCannot("revoke API tokens"),
  }),

  // Drift (issue 15): which mappings differ between Shopify and the ERP, as the latest check found.
  drift: endpoint({
    method: "GET",
    path: "/drift",
    summary: "Read the drift",
    description:
      "Which mappings differ between Shopify and the ERP (price, compare-at price, quantity per location), as the latest check of every mapping left them: a full sync (what still differs after its writes: failed and skipped items), a full dry run or a check-only schedule (everything that differs). Each such check replaces the list; a sync or dry run of some mappings updates theirs. Counts per field and the first 1,000 differing fields; `GET /drift.csv` has them all. Before the first check `checkedAt` is null and every count 0. Calls neither system.",
    access: "subscriber",
    output: DriftSummarySchema,
    defaultError: MESSAGES.drift.fetchFailed,
  }),
  driftCsv: endpoint({
    method: "GET",
    path: "/drift.csv",
    summary: "Download the drift as CSV",
    description:
      "Every differing field of `GET /drift`, as a `text/csv` attachment (`drift.csv`): RFC 4180 (fields with a comma, quote or line break quoted, quotes doubled, CRLF line ends), a header row `mappingId,shopifySku,acumaticaSku,field,location,shopify,erp`, prices in dollars with two decimals, an empty cell for none. Streamed page by page, so a long list never sits in memory whole.",
    access: "subscriber",
    output: v.string(),
    envelope: "csv",
    defaultError: MESSAGES.drift.downloadFailed,
  }),
  fixDrift: endpoint({
    method: "POST",
    path: "/drift/fix",
    summary: "Sync the drifted mappings",
    description:
      "Starts a sync job of exactly the mappings the drift lists, as one execution-history run: prices when a price or compare-at price differs, quantities when a quantity does. Its result is a `SyncJobResult`; each mapping it brings in line leaves the list. 409 when nothing differs, or naming the sync already running in `jobId`.",
    access: "subscriber",
    output: JobStartedSchema,
    defaultError: MESSAGES.drift.fixFailed,
    failures: ["conflict", "job-running"],
  }),
  // Alerts (issue #15): in-app notifications, and where email and webhook alerts go.
  listNotifications: endpoint({
    method: "GET",
    path: "/notifications",
    summary: "List the notifications",
    description:
      "A page of the user's alerts, newest first (`limit` 1 to 100, default 20): runs that ended failed, with failures or held, schedules the cron missed by more than 10 minutes, and runs stopped by a refused connection. `unread` counts every unread one.",
    access: "user",
    query: NotificationListQuerySchema,
    output: NotificationListSchema,
    defaultError: MESSAGES.notifications.fetchFailed,
  }),
  readNotification: endpoint({
    method: "POST",
    path: "/notifications/:id/read",
    summary: "Mark a notification read",
    description:
      "Marks the notification read (reading it again keeps its first `readAt`) and answers it with the unread count left. Another user's id answers 404.",
    access: "user",
    params: IdParamsSchema,
    output: v.object({ notification: NotificationSchema, unread: v.number() }),
    defaultError: MESSAGES.notifications.readFailed,
  }),
  readAllNotifications: endpoint({
    method: "POST",
    path: "/notifications/read-all",
    summary: "Mark every notification read",
    description: "Marks all of the user's unread notifications read; answers the unread count (0).",
    access: "user",
    output: UnreadCountSchema,
    defaultError: MESSAGES.notifications.readAllFailed,
  }),
  notificationSettings: endpoint({
    method: "GET",
    path: "/settings/notifications",
    summary: "Read the alert settings",
    description:
      "Where alerts go besides the app (`email`, `webhookUrl`) and which kinds do (`onFailed`, `onPartial`, `onMissed`, `onHeld`). Before the first save: the account's email, no webhook, failures and missed runs on. The webhook secret is never answered: `webhookSecretSet` says whether one exists.",
    access: "user",
    output: NotificationSettingsSchema,
    defaultError: MESSAGES.notifications.settingsFetchFailed,
  }),
  saveNotificationSettings: endpoint({
    method: "PUT",
    path: "/settings/notifications",
    summary: "Save the alert settings",
    description:
      "Replaces the alert settings. A blank or null `email` or `webhookUrl` turns that channel off. `webhookUrl` must be an http(s) URL whose host may be called under the same rules as connections (no private, loopback or metadata addresses unless the server allows them; https in production): 400 names the rule. In-app notifications are always recorded.",
    access: "user",
    body: NotificationSettingsInputSchema,
    output: NotificationSettingsSchema,
    defaultError: MESSAGES.notifications.settingsFailed,
  }),
  createWebhookSecret: endpoint({
    method: "POST",
    path: "/settings/notifications/webhook-secret",
    summary: "Create or rotate the webhook signing secret",
    description:
      'Creates a new secret (`whsec_` and 43 base64url characters) that signs every webhook from now on, replacing any earlier one, and answers it once: it is stored encrypted and never shown again. Each webhook carries `Stockbridge-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. Needs a signed-in session (403 for a personal token).',
    access: "user",
    output: WebhookSecretSchema,
    defaultError: MESSAGES.notifications.secretFailed,
    sessionOnly: personalTokenCannot("create webhook signing secrets"),
    answersSecret: true,
  }),
  alertDeliveries: endpoint({
    method: "GET",
    path: "/settings/notifications/deliveries",
    summary: "List the alert deliveries",
    description:
      "The 50 newest email and webhook deliveries with their status (pending, delivered, failed), attempts, the last status code or error and the next attempt. A delivery that fails is tried again with growing waits (1 minute doubling, at most 6 hours apart) for 24 hours, then marked failed.",
    access: "user",
    output: AlertDeliveryListSchema,
    defaultError: MESSAGES.notifications.deliveriesFailed,
  }),
  // Change feeds (issue #16): the web app's offline mirror reads each list once, then only what changed.
  shopifyProductChanges: endpoint({
    method: "GET",
    path: "/shopify/products/changes",
    summary: "Read what changed in the Shopify products",
    description:
      "The rows of the cached Shopify catalog; each row carries `position`, the stored order sorts break ties by, and the page the catalog's `lastSynced`. A pull that changes nothing adds no rows. Rows added or changed after the version `since` (0: all), oldest change first, `limit` at a time (1 to 5,000, default 1,000), and the ids removed since. Every change gets the next of the user's versions: pass the answer's `version` as the next `since`, at once while `hasMore`. A `since` that is not a whole number answers 400 naming `since`.",
    access: "subscriber",
    query: ChangesQuerySchema,
    output: ShopifyProductChangesSchema,
    defaultError: MESSAGES.products.fetchShopifyFailed,
  }),
  acumaticaProductChanges: endpoint({
    method: "GET",
    path: "/acumatica/products/changes",
    summary: "Read what changed in the Acumatica products",
    description:
      "The rows of the cached Acumatica catalog; each row carries `position`, the stored order sorts break ties by, and the page the catalog's `lastSynced`. A pull that changes nothing adds no rows. Rows added or changed after the version `since` (0: all), oldest change first, `limit` at a time (1 to 5,000, default 1,000), and the ids removed since. Every change gets the next of the user's versions: pass the answer's `version` as the next `since`, at once while `hasMore`. A `since` that is not a whole number answers 400 naming `since`.",
    access: "subscriber",
    query: ChangesQuerySchema,
    output: AcumaticaProductChangesSchema,
    defaultError: MESSAGES.products.fetchAcumaticaFailed,
  }),
  mappingChanges: endpoint({
    method: "GET",
    path: "/mapping/changes",
    summary: "Read what changed in the mappings",
    description:
      "The rows of the user's mappings, each with `createdAt` (lists are newest first); a mapping changes too when a pull adds, removes or renames one of its products. Rows added or changed after the version `since` (0: all), oldest change first, `limit` at a time (1 to 5,000, default 1,000), and the ids removed since. Every change gets the next of the user's versions: pass the answer's `version` as the next `since`, at once while `hasMore`. A `since` that is not a whole number answers 400 naming `since`.",
    access: "subscriber",
    query: ChangesQuerySchema,
    output: MappingChangesSchema,
    defaultError: MESSAGES.mapping.fetchHistoryFailed,
  }),
  unmappedChanges: endpoint({
    method: "GET",
    path: "/mapping/unmapped/changes",
    summary: "Read what changed in the unmapped products",
    description:
      "The rows of the products of both catalogs that no mapping uses: a product that gets mapped, or leaves its catalog, is in `removedIds`; one that is unmapped again comes back as a row. Rows added or changed after the version `since` (0: all), oldest change first, `limit` at a time (1 to 5,000, default 1,000), and the ids removed since. Every change gets the next of the user's versions: pass the answer's `version` as the next `since`, at once while `hasMore`. A `since` that is not a whole number answers 400 naming `since`.",
    access: "subscriber",
    query: ChangesQuerySchema,
    output: UnmappedChangesSchema,
    defaultError: MESSAGES.mapping.fetchUnmappedFailed,
  }),
  scheduleChanges: endpoint({
    method: "GET",
    path: "/mapping-schedule/changes",
    summary: "Read what changed in the schedules",
    description:
      "The rows of the user's schedules, each with `createdAt` and `position` (lists are newest first); a run moves `lastRun` and `nextRun`. Rows added or changed after the version `since` (0: all), oldest change first, `limit` at a time (1 to 5,000, default 1,000), and the ids removed since. Every change gets the next of the user's versions: pass the answer's `version` as the next `since`, at once while `hasMore`. A `since` that is not a whole number answers 400 naming `since`.",
    access: "subscriber",
    query: ChangesQuerySchema,
    output: ScheduleChangesSchema,
    defaultError: MESSAGES.schedules.fetchFailed,
  }),
  historyChanges: endpoint({
    method: "GET",
    path: "/execution-history/changes",
    summary: "Read what changed in the execution history",
    description:
      "The rows of the user's execution history entries as the list shows them; a run changes its entry while it goes and when it ends. Rows added or changed after the version `since` (0: all), oldest change first, `limit` at a time (1 to 5,000, default 1,000), and the ids removed since. Every change gets the next of the user's versions: pass the answer's `version` as the next `since`, at once while `hasMore`. A `since` that is not a whole number answers 400 naming `since`.",
    access: "subscriber",
    query: ChangesQuerySchema,
    output: HistoryChangesSchema,
    defaultError: MESSAGES.history.fetchFailed,
  }),
} as const satisfies Record<string, Endpoint>;

export type Contract = typeof contract;
export type EndpointName = keyof Contract;

type SchemaOutput<S> = S extends v.GenericSchema ? v.InferOutput<S> : never;
type SchemaInput<S> = S extends v.GenericSchema ? v.InferInput<S> : never;

/** What a caller passes: params, query and body, each only where the endpoint has one. */
export type EndpointInput<K extends EndpointName> = (Contract[K] extends { params: infer P }
  ? { params: SchemaInput<P> }
  : { params?: never }) &
  (Contract[K] extends { query: infer Q } ? { query?: SchemaInput<Q> } : { query?: never }) &
  (Contract[K] extends { body: infer B } ? { body: SchemaInput<B> } : { body?: never });

/** The validated input a handler receives. */
export type EndpointParsedInput<K extends EndpointName> = {
  params: Contract[K] extends { params: infer P } ? SchemaOutput<P> : Record<string, never>;
  query: Contract[K] extends { query: infer Q } ? SchemaOutput<Q> : Record<string, never>;
  body: Contract[K] extends { body: infer B } ? SchemaOutput<B> : Record<string, never>;
};

export type EndpointOutput<K extends EndpointName> = SchemaOutput<Contract[K]["output"]>;

import * as v from "valibot";
import { MESSAGES } from "./messages.ts";
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
import { IdParamsSchema, OkSchema } from "./schemas/common.ts";
import {
  AcumaticaConnectionInputSchema,
  AcumaticaConnectionSchema,
  ConnectionsSchema,
  ShopifyConnectionInputSchema,
  ShopifyConnectionSchema,
} from "./schemas/connections.ts";
import {
  ExecutionHistoryListSchema,
  ExecutionHistoryQuerySchema,
  ExecutionHistorySchema,
} from "./schemas/history.ts";
import { JobSchema } from "./schemas/jobs.ts";
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
  SettingsSchema,
} from "./schemas/settings.ts";
import { HealthSchema, SandboxConnectionSchema } from "./schemas/system.ts";
import { CreatedTokenSchema, CreateTokenInputSchema, PersonalTokenListSchema } from "./schemas/tokens.ts";

/** Who may call an endpoint: anyone, a signed-in user, or a user with an active/trialing subscription. */
export type Access = "public" | "user" | "subscriber";
export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface Endpoint {
  method: HttpMethod;
  /** Path under `/api`, with `:name` parameters. */
  path: string;
  access: Access;
  params?: v.GenericSchema;
  query?: v.GenericSchema;
  body?: v.GenericSchema;
  /** Schema of `data` in `{ data, message? }`, or of the whole body when `envelope` is "top-level". */
  output: v.GenericSchema;
  envelope?: "data" | "top-level";
  /** The catalogue message a client shows when the server gives none. */
  defaultError: string;
}

function endpoint<const E extends Endpoint>(definition: E): E {
  return definition;
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
    access: "public",
    output: HealthSchema,
    defaultError: MESSAGES.generic.requestFailed,
  }),
  sandbox: endpoint({
    method: "GET",
    path: "/sandbox",
    access: "public",
    output: SandboxConnectionSchema,
    defaultError: MESSAGES.generic.requestFailed,
  }),

  login: endpoint({
    method: "POST",
    path: "/auth/login",
    access: "public",
    body: LoginInputSchema,
    output: AuthResultSchema,
    defaultError: MESSAGES.auth.loginFailed,
  }),
  register: endpoint({
    method: "POST",
    path: "/auth/register",
    access: "public",
    body: RegisterInputSchema,
    output: AuthResultSchema,
    defaultError: MESSAGES.auth.registrationFailed,
  }),
  refresh: endpoint({
    method: "POST",
    path: "/auth/refresh",
    access: "public",
    body: RefreshInputSchema,
    output: AuthResultSchema,
    defaultError: MESSAGES.auth.refreshFailed,
  }),
  logout: endpoint({
    method: "POST",
    path: "/auth/logout",
    access: "user",
    output: OkSchema,
    defaultError: MESSAGES.generic.requestFailed,
  }),
  changePassword: endpoint({
    method: "PUT",
    path: "/auth/password",
    access: "user",
    body: ChangePasswordInputSchema,
    output: OkSchema,
    defaultError: MESSAGES.generic.requestFailed,
  }),
  me: endpoint({
    method: "GET",
    path: "/auth/me",
    access: "user",
    output: MeSchema,
    defaultError: MESSAGES.generic.requestFailed,
  }),

  getConnections: endpoint({
    method: "GET",
    path: "/users/connections",
    access: "user",
    output: ConnectionsSchema,
    defaultError: MESSAGES.generic.requestFailed,
  }),
  saveAcumatica: endpoint({
    method: "POST",
    path: "/users/acumatica",
    access: "user",
    body: AcumaticaConnectionInputSchema,
    output: AcumaticaConnectionSchema,
    defaultError: MESSAGES.connections.acumaticaUpdateFailed,
  }),
  saveShopify: endpoint({
    method: "POST",
    path: "/users/shopify",
    access: "user",
    body: ShopifyConnectionInputSchema,
    output: ShopifyConnectionSchema,
    defaultError: MESSAGES.connections.shopifyUpdateFailed,
  }),
  testAcumatica: endpoint({
    method: "POST",
    path: "/users/acumatica/test",
    access: "user",
    output: AcumaticaConnectionSchema,
    defaultError: MESSAGES.connections.acumaticaTestFailed,
  }),
  testShopify: endpoint({
    method: "POST",
    path: "/users/shopify/test",
    access: "user",
    output: ShopifyConnectionSchema,
    defaultError: MESSAGES.connections.shopifyTestFailed,
  }),

  plans: endpoint({
    method: "GET",
    path: "/subscriptions/plans",
    access: "user",
    output: v.array(PlanSchema),
    defaultError: MESSAGES.subscription.fetchPlansFailed,
  }),
  subscriptionStatus: endpoint({
    method: "GET",
    path: "/subscriptions/status",
    access: "user",
    query: SubscriptionStatusQuerySchema,
    output: SubscriptionStatusSchema,
    defaultError: MESSAGES.subscription.fetchStatusFailed,
  }),
  createSubscription: endpoint({
    method: "POST",
    path: "/subscriptions/create",
    access: "user",
    body: CreateSubscriptionInputSchema,
    output: SubscriptionSchema,
    defaultError: MESSAGES.subscription.createFailed,
  }),
  cancelSubscription: endpoint({
    method: "POST",
    path: "/subscriptions/cancel",
    access: "user",
    body: CancelSubscriptionInputSchema,
    output: SubscriptionSchema,
    defaultError: MESSAGES.subscription.cancelFailed,
  }),
  updateSubscription: endpoint({
    method: "POST",
    path: "/subscriptions/update",
    access: "user",
    body: PriceIdInputSchema,
    output: SubscriptionSchema,
    defaultError: MESSAGES.subscription.updateFailed,
  }),
  createCheckoutSession: endpoint({
    method: "POST",
    path: "/subscriptions/create-checkout-session",
    access: "user",
    body: PriceIdInputSchema,
    output: CheckoutSessionSchema,
    defaultError: MESSAGES.subscription.checkoutFailed,
  }),
  resumeSubscription: endpoint({
    method: "POST",
    path: "/subscriptions/resume",
    access: "user",
    output: SubscriptionSchema,
    defaultError: MESSAGES.subscription.resumeFailed,
  }),

  shopifyProducts: endpoint({
    method: "GET",
    path: "/shopify/products",
    access: "subscriber",
    query: ShopifyProductQuerySchema,
    output: ShopifyProductListSchema,
    defaultError: MESSAGES.products.fetchShopifyFailed,
  }),
  acumaticaProducts: endpoint({
    method: "GET",
    path: "/acumatica/products",
    access: "subscriber",
    query: AcumaticaProductQuerySchema,
    output: AcumaticaProductListSchema,
    defaultError: MESSAGES.products.fetchAcumaticaFailed,
  }),
  syncShopifyProducts: endpoint({
    method: "POST",
    path: "/shopify/products/sync",
    access: "subscriber",
    output: JobStartedSchema,
    defaultError: MESSAGES.products.syncShopifyFailed,
  }),
  syncAcumaticaProducts: endpoint({
    method: "POST",
    path: "/acumatica/products/sync",
    access: "subscriber",
    output: JobStartedSchema,
    defaultError: MESSAGES.products.syncAcumaticaFailed,
  }),

  autoMap: endpoint({
    method: "POST",
    path: "/mapping/exact-sku",
    access: "subscriber",
    output: JobStartedSchema,
    defaultError: MESSAGES.mapping.autoMapFailed,
  }),
  manualMap: endpoint({
    method: "POST",
    path: "/mapping/manual",
    access: "subscriber",
    body: MappingInputSchema,
    output: MappingSchema,
    defaultError: MESSAGES.mapping.manualMapFailed,
  }),
  unmapped: endpoint({
    method: "GET",
    path: "/mapping/unmapped",
    access: "subscriber",
    query: UnmappedQuerySchema,
    output: UnmappedSchema,
    defaultError: MESSAGES.mapping.fetchUnmappedFailed,
  }),
  mappingHistory: endpoint({
    method: "GET",
    path: "/mapping/history",
    access: "subscriber",
    query: MappingHistoryQuerySchema,
    output: MappingHistorySchema,
    defaultError: MESSAGES.mapping.fetchHistoryFailed,
  }),
  mappingSelector: endpoint({
    method: "GET",
    path: "/mapping/selector",
    access: "subscriber",
    query: SelectorQuerySchema,
    output: MappingSelectorSchema,
    defaultError: MESSAGES.mapping.fetchMappingsFailed,
  }),
  mappingsByIds: endpoint({
    method: "POST",
    path: "/mapping/by-ids",
    access: "subscriber",
    body: MappingIdsInputSchema,
    output: MappingListSchema,
    defaultError: MESSAGES.mapping.fetchByIdsFailed,
  }),
  updateMapping: endpoint({
    method: "PUT",
    path: "/mapping/:id",
    access: "subscriber",
    params: IdParamsSchema,
    body: MappingInputSchema,
    output: MappingSchema,
    defaultError: MESSAGES.mapping.updateFailed,
  }),
  deleteMapping: endpoint({
    method: "DELETE",
    path: "/mapping/:id",
    access: "subscriber",
    params: IdParamsSchema,
    output: OkSchema,
    defaultError: MESSAGES.mapping.deleteFailed,
  }),
  syncMapping: endpoint({
    method: "POST",
    path: "/mapping/:id/sync",
    access: "subscriber",
    params: IdParamsSchema,
    body: SyncMappingInputSchema,
    output: SyncRunSchema,
    defaultError: MESSAGES.mapping.syncFailed,
  }),
  syncMappings: endpoint({
    method: "POST",
    path: "/mapping/sync",
    access: "subscriber",
    body: SyncMappingsInputSchema,
    output: JobStartedSchema,
    defaultError: MESSAGES.mapping.syncFailed,
  }),

  createSchedule: endpoint({
    method: "POST",
    path: "/mapping-schedule",
    access: "subscriber",
    body: ScheduleInputSchema,
    output: ScheduleSchema,
    defaultError: MESSAGES.schedules.createFailed,
  }),
  listSchedules: endpoint({
    method: "GET",
    path: "/mapping-schedule",
    access: "subscriber",
    query: ScheduleListQuerySchema,
    output: ScheduleListSchema,
    defaultError: MESSAGES.schedules.fetchFailed,
  }),
  setScheduleStatus: endpoint({
    method: "PUT",
    path: "/mapping-schedule/:id/status",
    access: "subscriber",
    params: IdParamsSchema,
    body: ScheduleStatusInputSchema,
    output: ScheduleSchema,
    defaultError: MESSAGES.schedules.statusFailed,
  }),
  updateSchedule: endpoint({
    method: "PUT",
    path: "/mapping-schedule/:id",
    access: "subscriber",
    params: IdParamsSchema,
    body: ScheduleInputSchema,
    output: ScheduleSchema,
    defaultError: MESSAGES.schedules.updateFailed,
  }),
  deleteSchedule: endpoint({
    method: "DELETE",
    path: "/mapping-schedule/:id",
    access: "subscriber",
    params: IdParamsSchema,
    output: OkSchema,
    defaultError: MESSAGES.schedules.deleteFailed,
  }),

  settings: endpoint({
    method: "GET",
    path: "/settings",
    access: "user",
    output: SettingsSchema,
    defaultError: MESSAGES.settings.fetchFailed,
  }),
  quantityMapping: endpoint({
    method: "GET",
    path: "/settings/quantity-mapping",
    access: "user",
    output: QuantityMappingResultSchema,
    defaultError: MESSAGES.settings.fetchFailed,
  }),
  saveQuantityMapping: endpoint({
    method: "PUT",
    path: "/settings/quantity-mapping",
    access: "user",
    body: QuantityMappingSchema,
    output: QuantityMappingResultSchema,
    defaultError: MESSAGES.settings.quantityFailed,
  }),
  priceMapping: endpoint({
    method: "GET",
    path: "/settings/price-mapping",
    access: "user",
    output: PriceMappingResultSchema,
    defaultError: MESSAGES.settings.fetchFailed,
  }),
  savePriceMapping: endpoint({
    method: "PUT",
    path: "/settings/price-mapping",
    access: "user",
    body: PriceMappingSchema,
    output: PriceMappingResultSchema,
    defaultError: MESSAGES.settings.priceFailed,
  }),

  executionHistory: endpoint({
    method: "GET",
    path: "/execution-history",
    access: "subscriber",
    query: ExecutionHistoryQuerySchema,
    output: ExecutionHistoryListSchema,
    envelope: "top-level",
    defaultError: MESSAGES.history.fetchFailed,
  }),
  executionHistoryEntry: endpoint({
    method: "GET",
    path: "/execution-history/:id",
    access: "subscriber",
    params: IdParamsSchema,
    output: ExecutionHistorySchema,
    defaultError: MESSAGES.history.fetchFailed,
  }),

  job: endpoint({
    method: "GET",
    path: "/jobs/:id",
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
    access: "user",
    body: CreateTokenInputSchema,
    output: CreatedTokenSchema,
    defaultError: MESSAGES.tokens.createFailed,
  }),
  listTokens: endpoint({
    method: "GET",
    path: "/tokens",
    access: "user",
    output: PersonalTokenListSchema,
    defaultError: MESSAGES.tokens.fetchFailed,
  }),
  revokeToken: endpoint({
    method: "DELETE",
    path: "/tokens/:id",
    access: "user",
    params: IdParamsSchema,
    output: OkSchema,
    defaultError: MESSAGES.tokens.revokeFailed,
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

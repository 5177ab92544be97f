import {
  DirectiveLocation,
  type IntrospectionDirective,
  type IntrospectionEnumValue,
  type IntrospectionField,
  type IntrospectionInputValue,
  type IntrospectionQuery,
  type IntrospectionType,
} from "graphql";

/**
 * 2026-01 and 2026-04 are served as the 2025-01 schema plus the documented inventory changes
 * (https://shopify.dev/changelog/concurrency-protection-features). No public introspection of those
 * versions exists, so only what our simulator models is patched in.
 */
export function patchFor2026_01(schema: IntrospectionQuery): IntrospectionQuery {
  return withSchema(schema, {
    directives: [IDEMPOTENT_DIRECTIVE],
    types: (type) => {
      if (type.name === "InventoryQuantityInput" && type.kind === "INPUT_OBJECT") {
        const fields = type.inputFields.map((field) =>
          field.name === "compareQuantity" ? deprecated(field, "Use `changeFromQuantity` instead.") : field,
        );
        return { ...type, inputFields: [...fields, CHANGE_FROM_QUANTITY] };
      }
      if (type.name === "InventorySetQuantitiesInput" && type.kind === "INPUT_OBJECT") {
        const fields = type.inputFields.map((field) =>
          field.name === "ignoreCompareQuantity"
            ? deprecated(field, "Pass `changeFromQuantity: null` to skip the check instead.")
            : field,
        );
        return { ...type, inputFields: fields };
      }
      if (type.name === "InventorySetQuantitiesUserErrorCode" && type.kind === "ENUM") {
        return {
          ...type,
          enumValues: [
            ...type.enumValues,
            enumValue(
              "CHANGE_FROM_QUANTITY_STALE",
              "The changeFromQuantity value does not match persisted value.",
            ),
            enumValue(
              "IDEMPOTENCY_CONCURRENT_REQUEST",
              "This request is currently in progress, please try again.",
            ),
            enumValue(
              "IDEMPOTENCY_KEY_PARAMETER_MISMATCH",
              "The same idempotency key cannot be used with different operation parameters.",
            ),
          ],
        };
      }
      if (type.name === "QueryRoot" && type.kind === "OBJECT") {
        return { ...type, fields: [...type.fields, BULK_OPERATION_FIELD] };
      }
      return type;
    },
  });
}

/** 2026-04: compareQuantity / ignoreCompareQuantity removed (changeFromQuantity required at runtime). */
export function patchFor2026_04(schema: IntrospectionQuery): IntrospectionQuery {
  return withSchema(patchFor2026_01(schema), {
    directives: [],
    types: (type) => {
      if (type.name === "InventoryQuantityInput" && type.kind === "INPUT_OBJECT") {
        return { ...type, inputFields: type.inputFields.filter((field) => field.name !== "compareQuantity") };
      }
      if (type.name === "InventorySetQuantitiesInput" && type.kind === "INPUT_OBJECT") {
        return {
          ...type,
          inputFields: type.inputFields.filter((field) => field.name !== "ignoreCompareQuantity"),
        };
      }
      return type;
    },
  });
}

function withSchema(
  schema: IntrospectionQuery,
  patch: { directives: IntrospectionDirective[]; types: (type: IntrospectionType) => IntrospectionType },
): IntrospectionQuery {
  return {
    __schema: {
      ...schema.__schema,
      types: schema.__schema.types.map(patch.types),
      directives: [...schema.__schema.directives, ...patch.directives],
    },
  };
}

function deprecated(field: IntrospectionInputValue, reason: string): IntrospectionInputValue {
  return { ...field, isDeprecated: true, deprecationReason: reason };
}

function enumValue(name: string, description: string): IntrospectionEnumValue {
  return { name, description, isDeprecated: false, deprecationReason: null };
}

const INT = { kind: "SCALAR", name: "Int" } as const;
const NON_NULL_STRING = { kind: "NON_NULL", ofType: { kind: "SCALAR", name: "String" } } as const;
const NON_NULL_ID = { kind: "NON_NULL", ofType: { kind: "SCALAR", name: "ID" } } as const;

const IDEMPOTENT_DIRECTIVE: IntrospectionDirective = {
  name: "idempotent",
  description: "Makes the mutation idempotent: a retry with the same key returns the first result.",
  isRepeatable: false,
  locations: [DirectiveLocation.FIELD],
  args: [
    { name: "key", description: "A unique key, e.g. a UUID.", type: NON_NULL_STRING, defaultValue: null },
  ],
};

const CHANGE_FROM_QUANTITY: IntrospectionInputValue = {
  name: "changeFromQuantity",
  description:
    "The current quantity to be compared against the persisted quantity. Pass null to opt out of the check.",
  type: INT,
  defaultValue: null,
};

const BULK_OPERATION_FIELD: IntrospectionField = {
  name: "bulkOperation",
  description: "Returns a BulkOperation resource by ID.",
  args: [
    {
      name: "id",
      description: "The ID of the BulkOperation to return.",
      type: NON_NULL_ID,
      defaultValue: null,
    },
  ],
  type: { kind: "OBJECT", name: "BulkOperation" },
  isDeprecated: false,
  deprecationReason: null,
};

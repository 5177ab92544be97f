import {
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type OperationDefinitionNode,
  TypeInfo,
  typeFromAST,
  visit,
  visitWithTypeInfo,
} from "graphql";

/** What `X-Shopify-API-Deprecated-Reason` said before 2025-04: one generic link, whatever was used. */
const DEPRECATION_PRACTICES = "https://shopify.dev/api/usage/versioning#deprecation-practices";

/**
 * The `X-Shopify-API-Deprecated-Reason` value for an operation, or null when it uses nothing the
 * served version's schema marks deprecated: fields, arguments, input fields and enum values, in
 * the text or in the variables. From 2025-04 Shopify lists what was used (`Type.field, ...`);
 * before, it sent a link to its deprecation practices.
 */
export function deprecationReason(
  schema: GraphQLSchema,
  options: {
    document: DocumentNode;
    operation: OperationDefinitionNode;
    variables: Record<string, unknown>;
    versionName: string;
  },
): string | null {
  const used = new Set<string>();
  const typeInfo = new TypeInfo(schema);
  visit(
    options.document,
    visitWithTypeInfo(typeInfo, {
      Field() {
        const field = typeInfo.getFieldDef();
        const parent = typeInfo.getParentType();
        if (field?.deprecationReason && parent) used.add(`${parent.name}.${field.name}`);
      },
      Argument() {
        const argument = typeInfo.getArgument();
        const field = typeInfo.getFieldDef();
        const parent = typeInfo.getParentType();
        if (argument?.deprecationReason && field && parent)
          used.add(`${parent.name}.${field.name}(${argument.name})`);
      },
      ObjectField(node) {
        const parent = getNamedType(typeInfo.getParentInputType());
        if (!isInputObjectType(parent)) return;
        if (parent.getFields()[node.name.value]?.deprecationReason)
          used.add(`${parent.name}.${node.name.value}`);
      },
      EnumValue() {
        const value = typeInfo.getEnumValue();
        const type = getNamedType(typeInfo.getInputType());
        if (value?.deprecationReason && type) used.add(`${type.name}.${value.name}`);
      },
    }),
  );
  for (const definition of options.operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type);
    if (type) walkValue(type as GraphQLInputType, options.variables[definition.variable.name.value], used);
  }
  if (used.size === 0) return null;
  return options.versionName !== "unstable" && options.versionName < "2025-04"
    ? DEPRECATION_PRACTICES
    : [...used].sort().join(", ");
}

/** Deprecated input fields and enum values inside a variable's value. */
function walkValue(type: GraphQLInputType, value: unknown, used: Set<string>): void {
  if (value === null || value === undefined) return;
  if (isNonNullType(type)) {
    walkValue(type.ofType, value, used);
    return;
  }
  if (isListType(type)) {
    for (const item of Array.isArray(value) ? value : [value]) walkValue(type.ofType, item, used);
    return;
  }
  if (isEnumType(type)) {
    if (typeof value === "string" && type.getValue(value)?.deprecationReason)
      used.add(`${type.name}.${value}`);
    return;
  }
  if (!isInputObjectType(type) || typeof value !== "object") return;
  const fields = type.getFields();
  for (const [name, inner] of Object.entries(value)) {
    const field = fields[name];
    if (!field) continue;
    if (field.deprecationReason) used.add(`${type.name}.${name}`);
    walkValue(field.type, inner, used);
  }
}

/**
 * A checker for the subset of JSON Schema the reference compiled-geometry
 * schema uses (type, const, required, properties, items, prefixItems,
 * minItems, maxItems, minimum, maximum, minLength, maxLength, oneOf, $ref
 * into $defs), so a test can hold our document against it.
 *
 * @module
 */
type Schema = Record<string, unknown>;

/** Every violation of `schema` by `value`, as "path: rule" strings. */
export function violations(root: Schema, schema: Schema, value: unknown, path = "$"): string[] {
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.replace("#/$defs/", "");
    return violations(root, (root.$defs as Record<string, Schema>)[name], value, path);
  }
  const out: string[] = [];
  if ("const" in schema && value !== schema.const) out.push(`${path}: const`);
  if (Array.isArray(schema.oneOf)) {
    const ok = (schema.oneOf as Schema[]).filter((s) =>
      violations(root, s, value, path).length === 0
    );
    if (ok.length !== 1) out.push(`${path}: oneOf matched ${ok.length}`);
  }
  const type = schema.type as string | undefined;
  const typeOk = type === undefined ||
    (type === "null" && value === null) ||
    (type === "object" && typeof value === "object" && value !== null && !Array.isArray(value)) ||
    (type === "array" && Array.isArray(value)) ||
    (type === "string" && typeof value === "string") ||
    (type === "boolean" && typeof value === "boolean") ||
    (type === "number" && typeof value === "number" && Number.isFinite(value)) ||
    (type === "integer" && Number.isInteger(value));
  if (!typeOk) return [...out, `${path}: type ${type}`];
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum) out.push(`${path}: minimum`);
    if (typeof schema.maximum === "number" && value > schema.maximum) out.push(`${path}: maximum`);
  }
  if (typeof value === "string") {
    if (typeof schema.minLength === "number" && value.length < schema.minLength) {
      out.push(`${path}: minLength`);
    }
    if (typeof schema.maxLength === "number" && value.length > schema.maxLength) {
      out.push(`${path}: maxLength`);
    }
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === "number" && value.length < schema.minItems) {
      out.push(`${path}: minItems`);
    }
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems) {
      out.push(`${path}: maxItems`);
    }
    const prefix = (schema.prefixItems ?? []) as Schema[];
    value.forEach((item, i) => {
      const s = i < prefix.length ? prefix[i] : schema.items as Schema | undefined;
      if (s) out.push(...violations(root, s, item, `${path}[${i}]`));
    });
  }
  if (type === "object") {
    const obj = value as Record<string, unknown>;
    for (const key of (schema.required ?? []) as string[]) {
      if (!(key in obj)) out.push(`${path}: required ${key}`);
    }
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [key, s] of Object.entries(props)) {
      if (key in obj) out.push(...violations(root, s, obj[key], `${path}.${key}`));
    }
  }
  return out;
}

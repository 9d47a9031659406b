import { z, ZodTypeAny } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * A small zod -> JSON Schema (draft-07, as AsyncAPI schemas use) converter covering the zod
 * features the contracts use. Anything else throws, so a new zod construct in the contracts
 * cannot be documented wrongly without the test noticing.
 */
export function zodToJsonSchema(schema: ZodTypeAny): JsonSchema {
  const def = schema._def as { typeName: string; description?: string };
  const out = convert(schema);
  if (def.description && !out.description) out.description = def.description;
  return out;
}

function convert(schema: ZodTypeAny): JsonSchema {
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, ZodTypeAny>;
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [key, value] of Object.entries(shape)) {
      properties[key] = zodToJsonSchema(value);
      if (!value.isOptional() && !(value instanceof z.ZodDefault)) required.push(key);
    }
    const out: JsonSchema = { type: 'object', properties };
    if (required.length) out.required = required;
    const unknownKeys = (schema._def as { unknownKeys: string }).unknownKeys;
    if (unknownKeys === 'strict') out.additionalProperties = false;
    return out;
  }
  if (schema instanceof z.ZodString) {
    const out: JsonSchema = { type: 'string' };
    for (const check of schema._def.checks) {
      if (check.kind === 'min') out.minLength = check.value;
      else if (check.kind === 'max') out.maxLength = check.value;
      else if (check.kind === 'regex') out.pattern = check.regex.source;
      else if (check.kind === 'email') out.format = 'email';
      else if (check.kind === 'url') out.format = 'uri';
      else throw new Error(`zod string check '${check.kind}' is not supported by the AsyncAPI converter`);
    }
    return out;
  }
  if (schema instanceof z.ZodNumber) {
    const out: JsonSchema = { type: 'number' };
    for (const check of schema._def.checks) {
      if (check.kind === 'int') out.type = 'integer';
      else if (check.kind === 'min') out[check.inclusive ? 'minimum' : 'exclusiveMinimum'] = check.value;
      else if (check.kind === 'max') out[check.inclusive ? 'maximum' : 'exclusiveMaximum'] = check.value;
      else throw new Error(`zod number check '${check.kind}' is not supported by the AsyncAPI converter`);
    }
    return out;
  }
  if (schema instanceof z.ZodBoolean) return { type: 'boolean' };
  if (schema instanceof z.ZodNull) return { type: 'null' };
  if (schema instanceof z.ZodLiteral) return { const: schema._def.value };
  if (schema instanceof z.ZodEnum) return { type: 'string', enum: [...schema._def.values] };
  if (schema instanceof z.ZodUnknown || schema instanceof z.ZodAny) return {};
  if (schema instanceof z.ZodArray) {
    const out: JsonSchema = { type: 'array', items: zodToJsonSchema(schema._def.type) };
    if (schema._def.minLength) out.minItems = schema._def.minLength.value;
    if (schema._def.maxLength) out.maxItems = schema._def.maxLength.value;
    return out;
  }
  if (schema instanceof z.ZodRecord) {
    const out: JsonSchema = { type: 'object', additionalProperties: zodToJsonSchema(schema._def.valueType) };
    const keys = zodToJsonSchema(schema._def.keyType);
    if (keys.maxLength !== undefined || keys.pattern !== undefined || keys.minLength !== undefined) {
      const { type: _t, ...rest } = keys;
      out.propertyNames = rest;
    }
    return out;
  }
  if (schema instanceof z.ZodUnion) return { anyOf: (schema._def.options as ZodTypeAny[]).map(zodToJsonSchema) };
  // A tagged union (the structured question's period): one of the variants, told apart by the tag.
  if (schema instanceof z.ZodDiscriminatedUnion) return { oneOf: (schema._def.options as ZodTypeAny[]).map(zodToJsonSchema) };
  if (schema instanceof z.ZodNullable) return { anyOf: [zodToJsonSchema(schema._def.innerType), { type: 'null' }] };
  if (schema instanceof z.ZodOptional) return zodToJsonSchema(schema._def.innerType);
  if (schema instanceof z.ZodDefault) return { ...zodToJsonSchema(schema._def.innerType), default: schema._def.defaultValue() };
  if (schema instanceof z.ZodEffects) return zodToJsonSchema(schema._def.schema);
  throw new Error(`zod type ${(schema._def as { typeName: string }).typeName} is not supported by the AsyncAPI converter`);
}

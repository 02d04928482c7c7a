// Building blocks shared by every object schema.
// Every property is optional: the API document requires only a recipe's and an inventory
// item's `name`, and real documents omit unset fields rather than sending null.
// Nullable values are unions with Null (plain TypeBox, so TypeBox's own checker and ajv agree);
// the issue formatter folds the union's branch errors back into one issue.
import { Type, type TLiteral, type TSchema, type TUnion, type NumberOptions } from "@sinclair/typebox";
import { NUMERIC_STRING_PATTERN } from "./numeric-string";

export const Opt = <T extends TSchema>(schema: T) => Type.Optional(schema);

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Optional number, with the bounds the document states. */
export const Num = (options: NumberOptions = {}) => Opt(Type.Number(options));
/** Optional number or null. */
export const NumN = (options: NumberOptions = {}) => Opt(Nullable(Type.Number(options)));
export const Str = () => Opt(Type.String());
export const StrN = () => Opt(Nullable(Type.String()));
export const Bool = () => Opt(Type.Boolean());
export const BoolN = () => Opt(Nullable(Type.Boolean()));

/** Closed set of strings, only where the document (or the hosted service's docs) lists every value. */
export function OneOf<const T extends readonly string[]>(values: T): TUnion<TLiteral<T[number]>[]> {
  return Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnion<TLiteral<T[number]>[]>;
}

export const NumericString = () => Type.String({ pattern: NUMERIC_STRING_PATTERN });

/** Bounds the document states more than once. */
export const PERCENT = { minimum: 0, maximum: 100 } as const;
export const PH = { minimum: 0, maximum: 14 } as const;

// Value sets listed exactly in the document.
export const TIME_UNITS = ["min", "day", "days"] as const;
export const ADDITION_USES = ["Boil", "Mash", "Steep", "Primary", "Secondary", "Bottling", "Sparge", "Flameout"] as const;

/**
 * `_timestamp` and `_created` are `{_seconds, _nanoseconds}` objects in real data (a recipe
 * export also carries `_timestamp` as a string); `_timestamp_ms` is documented as a string
 * but is a number in real data. Both forms are accepted.
 */
export const FirestoreTime = Type.Object({ _seconds: Num(), _nanoseconds: Num() });
export const MetaFields = {
  _id: StrN(),
  _rev: Str(),
  _data_rev: StrN(),
  _timestamp: Opt(Type.Union([FirestoreTime, Type.String()])),
  _created: Opt(Type.Union([FirestoreTime, Type.String()])),
  _timestamp_ms: Opt(Type.Union([Type.Number(), Type.String()])),
  createdAt: Str(),
  updatedAt: Str(),
};

// Which fields of a verb's result may be null. proto3 has no null: the gRPC door sends a null
// field absent, and its client (grpc/hive-codec.ts) sets the declared fields back to null, so
// every door returns the same objects. The declaration is checked against the result's type:
// a field the type says is `T | null` must be declared, and a declared one must be such a field.

/** A field's path in a result: "agent.team", "agents[].team" (each element of a list). */
type Join<P extends string, K extends string> = P extends "" ? K : `${P}.${K}`;
/** How deep the walk goes (results nest 3 levels today; the bound keeps the type finite). */
type Down = [never, 0, 1, 2, 3, 4, 5];

/** Every `T | null` field of T: its path, the object holding it, and whether its key may be left out. */
type Nullables<T, P extends string = "", D extends number = 6> = [D] extends [never]
  ? never
  : T extends readonly (infer E)[]
    ? Nullables<E, `${P}[]`, Down[D]>
    : T extends object
      ? {
          [K in keyof T & string]-?: string extends K
            ? never // an open record (event data): no fixed fields
            :
                | (null extends T[K] ? { path: Join<P, K>; row: T; keyMayBeLeftOut: {} extends Pick<T, K> ? true : false } : never)
                | Nullables<Exclude<T[K], null | undefined>, Join<P, K>, Down[D]>;
        }[keyof T & string]
      : never;

/**
 * A verb's nullable fields, by path. A field whose key is always there (`team: string | null`)
 * is `true`: absent on the wire means null. A field whose key may be left out
 * (`exit_code?: number | null`) is absent on the wire both when null and when left out: declare
 * it with the condition on its object under which the key is there (`(r) => !r.alive`), or leave
 * it out to keep it absent.
 */
export type NullableFields<R> = {
  [F in Extract<Nullables<R>, { keyMayBeLeftOut: false }> as F["path"]]: true;
} & {
  [F in Extract<Nullables<R>, { keyMayBeLeftOut: true }> as F["path"]]?: (row: F["row"]) => boolean;
};

/** What a door reads of a declaration, whatever the verb's result type. */
export type NullableDeclaration = Readonly<Record<string, true | ((row: any) => boolean)>>;

/**
 * The same nullable fields under one object of the result: under("agent", ["team"]) →
 * { "agent.team": true }. A spread is not checked for unknown keys: test/unit/verbs/nullable.test.ts
 * holds each path to the proto.
 */
export function under<P extends string, K extends string>(prefix: P, keys: readonly K[]): Record<`${P}.${K}`, true> {
  return Object.fromEntries(keys.map((key) => [`${prefix}.${key}`, true])) as Record<`${P}.${K}`, true>;
}

// Test kit: checks an OCSF event against the vendored schema definitions
// (src/destinations/ocsf/schema/, see its NOTICE) the way the OCSF schema
// compiler reads them: a class is its parent's attributes, then those of the
// profiles it $includes (each tagged with its profile), then its own (which
// may untag one with "profile": null); objects the same through `extends`.
// It checks: the class exists and category_uid / type_uid agree with it;
// every attribute is one the class or object defines (and its profile is
// declared in metadata.profiles); types, arrays, enums, regexes, lengths and
// ranges from the dictionary; required attributes (a profile's only when the
// profile is applied); at_least_one / just_one constraints. An object type the
// folder has no definition for is an error, so the mapping cannot emit what
// was never checked. Tests only; never imported by production code.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

type Json = Record<string, unknown>;
interface AttrDef {
  requirement?: string;
  profile?: string | null;
  enum?: Record<string, unknown>;
}
interface Resolved {
  attrs: Map<string, AttrDef>;
  constraints: { at_least_one?: string[]; just_one?: string[] };
}
interface DictAttr {
  type: string;
  is_array?: boolean;
  enum?: Record<string, unknown>;
}
interface TypeDef {
  type?: string;
  regex?: string;
  max_len?: number;
  range?: [number, number];
}

const GENERATED_ENUMS = new Set(['class_uid', 'category_uid', 'type_uid']);

export const SCHEMA_DIR = join(import.meta.dirname, '../ocsf/schema');

export class OcsfSchema {
  readonly version: string;
  private readonly dict: Record<string, DictAttr>;
  private readonly types: Record<string, TypeDef>;
  private readonly categories: Record<string, { uid: number }>;
  private readonly classes = new Map<number, { name: string; resolved: Resolved }>();
  private readonly objects = new Map<string, Resolved>();
  private readonly dir: string;

  constructor(
    dir = SCHEMA_DIR,
    classFiles = ['events/application/api_activity.json', 'events/findings/detection_finding.json'],
  ) {
    this.dir = dir;
    const dictionary = this.read('dictionary.json') as {
      attributes: Record<string, DictAttr>;
      types: { attributes: Record<string, TypeDef> };
    };
    this.dict = dictionary.attributes;
    this.types = dictionary.types.attributes;
    this.categories = (this.read('categories.json') as { attributes: Record<string, { uid: number }> }).attributes;
    this.version = (this.read('version.json') as { version: string }).version;
    for (const f of classFiles) {
      const { resolved, category, uid, name } = this.resolveEvent(f);
      const cat = this.categories[category];
      if (!cat) throw new Error(`${f}: unknown category ${category}`);
      this.classes.set(cat.uid * 1000 + uid, { name, resolved });
    }
  }

  private read(path: string): Json {
    return JSON.parse(readFileSync(join(this.dir, path), 'utf8')) as Json;
  }

  private merge(into: Map<string, AttrDef>, path: string): void {
    const own = (this.read(path)['attributes'] ?? {}) as Record<string, AttrDef | string[]>;
    for (const inc of (own['$include'] as string[] | undefined) ?? []) {
      const profile = this.read(inc);
      const pattrs = (profile['attributes'] ?? {}) as Record<string, AttrDef>;
      for (const [k, v] of Object.entries(pattrs)) {
        if (k === '$include') continue;
        into.set(k, {
          ...into.get(k),
          ...v,
          profile: profile['name'] as string,
          enum: mergeEnum(into.get(k)?.enum, v.enum),
        });
      }
    }
    for (const [k, v] of Object.entries(own)) {
      if (k === '$include') continue;
      const d = v as AttrDef;
      const before = into.get(k);
      const merged: AttrDef = { ...before, ...d, enum: mergeEnum(before?.enum, d.enum) };
      if (!('profile' in d)) merged.profile = before?.profile;
      into.set(k, merged);
    }
  }

  private resolveEvent(path: string): { resolved: Resolved; category: string; uid: number; name: string } {
    const doc = this.read(path);
    let attrs = new Map<string, AttrDef>();
    let category = doc['category'] as string | undefined;
    const ext = doc['extends'] as string | undefined;
    if (ext) {
      const parentPath = [join(dirname(path), `${ext}.json`), `events/${ext}.json`].find((p) =>
        existsSync(join(this.dir, p)),
      );
      if (!parentPath) throw new Error(`${path} extends ${ext}, which is not vendored`);
      const parent = this.resolveEvent(parentPath);
      attrs = new Map(parent.resolved.attrs);
      category ??= parent.category;
    }
    this.merge(attrs, path);
    return {
      resolved: { attrs, constraints: (doc['constraints'] ?? {}) as Resolved['constraints'] },
      category: category ?? 'other',
      uid: (doc['uid'] as number | undefined) ?? 0,
      name: doc['name'] as string,
    };
  }

  private object(name: string): Resolved | undefined {
    const cached = this.objects.get(name);
    if (cached) return cached;
    const path = `objects/${name}.json`;
    if (!existsSync(join(this.dir, path))) return undefined;
    const doc = this.read(path);
    const ext = doc['extends'] as string | undefined;
    const parent = ext ? this.object(ext) : undefined;
    if (ext && !parent) throw new Error(`object ${name} extends ${ext}, which is not vendored`);
    const attrs = new Map(parent?.attrs ?? []);
    this.merge(attrs, path);
    const resolved = {
      attrs,
      constraints: (doc['constraints'] ?? parent?.constraints ?? {}) as Resolved['constraints'],
    };
    this.objects.set(name, resolved);
    return resolved;
  }

  /** Every problem with an event, as `path: what`; empty when it conforms. */
  validate(event: Json): string[] {
    const errors: string[] = [];
    const classUid = event['class_uid'];
    const cls = typeof classUid === 'number' ? this.classes.get(classUid) : undefined;
    if (!cls) return [`class_uid: ${String(classUid)} is not a vendored class`];
    const categoryUid = Math.floor((classUid as number) / 1000);
    if (event['category_uid'] !== categoryUid)
      errors.push(`category_uid: ${String(event['category_uid'])}, the class says ${categoryUid}`);
    if (
      typeof event['activity_id'] === 'number' &&
      event['type_uid'] !== (classUid as number) * 100 + event['activity_id']
    )
      errors.push(`type_uid: ${String(event['type_uid'])} is not class_uid × 100 + activity_id`);
    const meta = event['metadata'] as Json | undefined;
    const profiles = new Set(Array.isArray(meta?.['profiles']) ? (meta['profiles'] as string[]) : []);
    this.check(event, cls.resolved, '', profiles, errors);
    return errors;
  }

  private check(value: Json, def: Resolved, path: string, profiles: Set<string>, errors: string[]): void {
    const at = (k: string) => (path ? `${path}.${k}` : k);
    for (const [k, v] of Object.entries(value)) {
      const a = def.attrs.get(k);
      if (!a) {
        errors.push(`${at(k)}: not an attribute here`);
        continue;
      }
      if (a.profile && !profiles.has(a.profile))
        errors.push(`${at(k)}: belongs to profile ${a.profile}, not in metadata.profiles`);
      const d = this.dict[k];
      if (!d) {
        errors.push(`${at(k)}: not in the vendored dictionary`);
        continue;
      }
      // The compiler writes these enums from the class and category (checked above); the files hold only 0.
      const enumDef = GENERATED_ENUMS.has(k) && !path ? undefined : mergeEnum(d.enum, a.enum);
      if (d.is_array) {
        if (!Array.isArray(v)) errors.push(`${at(k)}: must be an array`);
        else v.forEach((x, i) => this.checkValue(x, d.type, enumDef, `${at(k)}[${i}]`, profiles, errors));
      } else this.checkValue(v, d.type, enumDef, at(k), profiles, errors);
    }
    for (const [k, a] of def.attrs)
      if (a.requirement === 'required' && (!a.profile || profiles.has(a.profile)) && value[k] === undefined)
        errors.push(`${at(k)}: required`);
    const present = (ks: string[]) => ks.filter((k) => value[k] !== undefined).length;
    const { at_least_one: one, just_one: just } = def.constraints;
    if (one && present(one) === 0) errors.push(`${path || '(event)'}: needs at least one of ${one.join(', ')}`);
    if (just && present(just) !== 1) errors.push(`${path || '(event)'}: needs exactly one of ${just.join(', ')}`);
  }

  private checkValue(
    v: unknown,
    type: string,
    enumDef: Record<string, unknown> | undefined,
    path: string,
    profiles: Set<string>,
    errors: string[],
  ): void {
    if (type === 'object') {
      if (!isPlain(v)) errors.push(`${path}: must be an object`);
      return;
    }
    if (!type.endsWith('_t')) {
      const obj = this.object(type);
      if (!obj) return void errors.push(`${path}: object type ${type} is not vendored`);
      if (!isPlain(v)) return void errors.push(`${path}: must be a ${type} object`);
      this.check(v, obj, path, profiles, errors);
      return;
    }
    const problem = this.scalarProblem(v, type);
    if (problem) return void errors.push(`${path}: ${problem}`);
    if (enumDef && !(String(v) in enumDef))
      errors.push(`${path}: ${String(v)} is not one of ${Object.keys(enumDef).join(', ')}`);
  }

  private scalarProblem(v: unknown, type: string): string | undefined {
    const t = this.types[type];
    if (!t) return `type ${type} unknown`;
    if (t.type) {
      const base = this.scalarProblem(v, t.type);
      if (base) return `${base} (${type})`;
    } else {
      switch (type) {
        case 'string_t':
          if (typeof v !== 'string') return `must be a string`;
          break;
        case 'integer_t':
          if (!Number.isInteger(v) || Math.abs(v as number) > 2 ** 31) return `must be a 32-bit integer`;
          break;
        case 'long_t':
          if (!Number.isSafeInteger(v)) return `must be an integer`;
          break;
        case 'float_t':
          if (typeof v !== 'number' || !Number.isFinite(v)) return `must be a number`;
          break;
        case 'boolean_t':
          if (typeof v !== 'boolean') return `must be a boolean`;
          break;
        case 'json_t':
          break;
        default:
          return `type ${type} has no base`;
      }
    }
    if (t.regex && typeof v === 'string' && !new RegExp(t.regex).test(v)) return `does not match ${type}`;
    if (t.max_len && typeof v === 'string' && v.length > t.max_len) return `longer than ${t.max_len} (${type})`;
    if (t.range && typeof v === 'number' && (v < t.range[0] || v > t.range[1]))
      return `outside ${t.range.join('-')} (${type})`;
    return undefined;
  }
}

function isPlain(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function mergeEnum(a?: Record<string, unknown>, b?: Record<string, unknown>): Record<string, unknown> | undefined {
  return a || b ? { ...a, ...b } : undefined;
}

import { routes } from '../../src/rest/routes';
import { lookUpRules, validate } from '../../src/schema/class-validator';
import { InputField } from '../../src/schema/fields';

// src/schema/class-validator.ts keeps class-validator's lookup of a class's rules per class and
// options until a rule is added. The kept lists must be the lookup's own: the same rules in the
// same order for every input class of the app, and a rule added later seen by the class and by the
// classes that inherit it.

type Storage = { validationMetadatas: Map<unknown, unknown[]>; getTargetValidationMetadatas(target: Function, schema: unknown, always: boolean, strictGroups: boolean, groups?: string[]): unknown[] };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const storage = (require('class-validator/cjs/metadata/MetadataStorage') as { getMetadataStorage(): Storage }).getMetadataStorage();
// validate()'s options in src/schema/validation.ts: no schema, no groups, neither always nor strictGroups.
const rulesOf = (cls: Function) => storage.getTargetValidationMetadatas(cls, undefined, false, false, undefined);
const lookedUp = (cls: Function) => lookUpRules(cls, undefined as unknown as string, false, false, undefined);
const check = (o: object) => validate(o, { skipMissingProperties: true, forbidUnknownValues: false });

describe("class-validator's rules, kept per class", () => {
  it("gives every input class of the app the rules class-validator's lookup gives, in its order", () => {
    expect(routes.length).toBeGreaterThan(100); // every module's inputs loaded
    const classes = [...storage.validationMetadatas.keys()].filter((k): k is Function => typeof k === 'function');
    expect(classes.length).toBeGreaterThan(50);
    for (const cls of classes) {
      const kept = rulesOf(cls);
      const fresh = lookedUp(cls);
      expect(kept.length).toBe(fresh.length);
      kept.forEach((rule, i) => expect(rule).toBe(fresh[i]));
      expect(rulesOf(cls)).toBe(kept); // kept: the second validation does not look again
    }
  });

  it('sees a rule added later, on the class and on the classes that inherit it', async () => {
    class Parent {
      a?: unknown;
      b?: unknown;
    }
    class Child extends Parent {
      c?: unknown;
    }
    InputField('a', 'string', { graphql: false })(Parent.prototype, 'a');
    InputField('c', 'boolean', { graphql: false })(Child.prototype, 'c');
    const parentBefore = rulesOf(Parent);
    const childBefore = rulesOf(Child);
    expect(childBefore).toEqual(lookedUp(Child));
    expect(await check(Object.assign(new Child(), { b: 'seven' }))).toEqual([]);

    InputField('b', 'int', { graphql: false })(Parent.prototype, 'b');
    expect(rulesOf(Parent).length).toBeGreaterThan(parentBefore.length);
    expect(rulesOf(Child).length).toBeGreaterThan(childBefore.length);
    expect(rulesOf(Child)).toEqual(lookedUp(Child));
    const errors = await check(Object.assign(new Child(), { b: 'seven' }));
    expect(errors.map((e) => [e.property, Object.keys(e.constraints ?? {})])).toEqual([['b', ['isInt']]]);
  });
});

import type * as ClassValidator from 'class-validator';

// The parts of class-validator the inputs use, each from its own file: the package's index loads
// every decorator it has, with the whole `validator` library and libphonenumber-js (some 300
// modules, a third of a second at every start of a process and of a test file). The types are the
// package's own; the files are those its index re-exports.

type CV = typeof ClassValidator;
const part = <K extends keyof CV>(file: string, name: K): CV[K] => (require(`class-validator/cjs/${file}`) as Pick<CV, K>)[name];

export const ValidateBy = part('decorator/common/ValidateBy', 'ValidateBy');
export const IsIn = part('decorator/common/IsIn', 'IsIn');
export const IsBoolean = part('decorator/typechecker/IsBoolean', 'IsBoolean');
export const IsDate = part('decorator/typechecker/IsDate', 'IsDate');
export const IsInt = part('decorator/typechecker/IsInt', 'IsInt');
export const IsNumber = part('decorator/typechecker/IsNumber', 'IsNumber');
export const IsString = part('decorator/typechecker/IsString', 'IsString');
export const MaxLength = part('decorator/string/MaxLength', 'MaxLength');

const Validator = part('validation/Validator', 'Validator');
let validator: ClassValidator.Validator | undefined;
/** class-validator's `validate(object, options)`, on one Validator as its index keeps. */
export const validate: CV['validate'] = ((object: object, options?: ClassValidator.ValidatorOptions) => (validator ??= new Validator()).validate(object, options)) as CV['validate'];

type Storage = {
  getTargetValidationMetadatas(target: Function, schema: string, always: boolean, strictGroups: boolean, groups?: string[]): unknown[];
  addValidationMetadata(metadata: unknown): void;
};
const storage = part('metadata/MetadataStorage', 'getMetadataStorage')() as unknown as Storage;

/**
 * class-validator's lookup of a class's rules, as it gives them, kept per class and options until
 * a rule is added. Its own lookup walks every class that has rules (`instanceof`, for inherited
 * ones) at every validate(), so each input checked paid for all the app's input classes. The
 * executor only reads the list (test/schema/validation-metadata.spec.ts holds the kept lists to
 * the lookup's for every class).
 */
export const lookUpRules = storage.getTargetValidationMetadatas.bind(storage);
const kept = new Map<Function, Map<string, unknown[]>>();
storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
  let byOptions = kept.get(target);
  if (!byOptions) kept.set(target, (byOptions = new Map()));
  const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0000') ?? ''}\u0000${groups?.length ?? -1}`;
  let rules = byOptions.get(key);
  if (!rules) byOptions.set(key, (rules = lookUpRules(target, schema, always, strictGroups, groups)));
  return rules;
};
const addRule = storage.addValidationMetadata.bind(storage);
storage.addValidationMetadata = (metadata) => {
  kept.clear();
  addRule(metadata);
};

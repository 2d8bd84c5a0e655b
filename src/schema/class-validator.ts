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

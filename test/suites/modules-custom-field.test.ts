import { specs } from '../helpers/specs';

specs('modules/custom-field');

import { specs } from '../helpers/specs';

specs('modules/company');

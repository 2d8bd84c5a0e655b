import { specs } from '../helpers/specs';

specs('modules/document');

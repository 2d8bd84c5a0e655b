import { specs } from '../helpers/specs';

specs('schema');

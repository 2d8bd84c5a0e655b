import { specs } from '../helpers/specs';

specs('seed');

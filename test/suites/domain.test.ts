import { specs } from '../helpers/specs';

specs('domain');

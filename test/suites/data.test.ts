import { specs } from '../helpers/specs';

specs('data');

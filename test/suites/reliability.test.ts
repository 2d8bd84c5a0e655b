import { specs } from '../helpers/specs';

specs('reliability');

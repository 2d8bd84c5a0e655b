import { specs } from '../helpers/specs';

specs('jobs');

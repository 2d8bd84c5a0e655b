import { specs } from '../helpers/specs';

specs('ops');

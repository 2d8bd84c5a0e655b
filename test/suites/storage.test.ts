import { specs } from '../helpers/specs';

specs('storage');

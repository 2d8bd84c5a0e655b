import { specs } from '../helpers/specs';

specs('auth');

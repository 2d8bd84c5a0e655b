import { specs } from '../helpers/specs';

specs('bench');

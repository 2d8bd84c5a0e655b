import { specs } from '../helpers/specs';

specs('install');

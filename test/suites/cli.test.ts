import { specs } from '../helpers/specs';

specs('cli');

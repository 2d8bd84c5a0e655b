import { specs } from '../helpers/specs';

specs('http');

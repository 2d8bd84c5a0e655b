import { specs } from '../helpers/specs';

specs('scale');

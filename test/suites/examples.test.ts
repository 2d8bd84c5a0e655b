import { specs } from '../helpers/specs';

specs('examples');

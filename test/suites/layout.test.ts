import { specs } from '../helpers/specs';

specs('layout');

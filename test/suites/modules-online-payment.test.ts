import { specs } from '../helpers/specs';

specs('modules/online-payment');

import { specs } from '../helpers/specs';

specs('graphql');

import '../../../libs/service-kit/src/register-paths';
import '../../../libs/service-kit/src/instrument';
import 'reflect-metadata';
import { runFromEnv } from '@cota/service-kit';
import { toolGateService } from './tool-gate.service';

void runFromEnv(toolGateService);

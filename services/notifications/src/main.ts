import { runService } from '@warmline/platform/lifecycle';
import { notificationsEnv } from './config';
import { startNotifications } from './service';

await runService('notifications', notificationsEnv, startNotifications);

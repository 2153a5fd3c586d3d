// A third-party tool package: it depends on @agentloop/tools and zod only, and exports its tools and a
// plugin that any agentloop app (or the agentloop CLI, through its config) can load.
import { defineToolPlugin } from '@agentloop/tools';
import { createWeatherTools } from './weather-tools.js';

export type { Weather, WeatherSource } from './weather-tools.js';
export { createWeatherTools, fixedWeatherSource } from './weather-tools.js';

/** The plugin: provides `current_weather` and `convert_temperature`. */
export const weatherPlugin = defineToolPlugin({ name: 'weather-tools', tools: createWeatherTools() });

export default weatherPlugin;

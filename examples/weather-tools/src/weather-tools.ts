import { defineTool } from '@agentloop/tools';
import { z } from 'zod';

/** A weather reading. */
export interface Weather {
  city: string;
  temperatureC: number;
  conditions: string;
}

/** Where readings come from: a weather API in a real package. */
export type WeatherSource = (city: string, signal: AbortSignal) => Promise<Weather | undefined>;

// Fixed readings, so the example runs without a weather API key or network.
const readings: Record<string, Weather> = {
  oslo: { city: 'Oslo', temperatureC: -3, conditions: 'snow' },
  lisbon: { city: 'Lisbon', temperatureC: 17, conditions: 'sunny' },
  tokyo: { city: 'Tokyo', temperatureC: 12, conditions: 'cloudy' },
};

/** The built-in source: a few fixed cities. */
export const fixedWeatherSource: WeatherSource = async (city) => readings[city.trim().toLowerCase()];

/** Creates the package's tools on a weather source. */
export function createWeatherTools(source: WeatherSource = fixedWeatherSource) {
  const currentWeather = defineTool({
    name: 'current_weather',
    description: 'Current temperature (°C) and conditions in a city.',
    parameters: z.object({ city: z.string().min(1).describe('City name, e.g. "Oslo"') }),
    execute: async ({ city }, context) => {
      const weather = await source(city, context.signal);
      if (!weather) throw new Error(`No weather data for "${city}". Known cities: Oslo, Lisbon, Tokyo.`);
      return weather;
    },
  });
  const convertTemperature = defineTool({
    name: 'convert_temperature',
    description: 'Convert a temperature between Celsius and Fahrenheit.',
    parameters: z.object({ value: z.number(), to: z.enum(['celsius', 'fahrenheit']) }),
    execute: ({ value, to }) => (to === 'fahrenheit' ? value * 1.8 + 32 : (value - 32) / 1.8),
  });
  return [currentWeather, convertTemperature];
}

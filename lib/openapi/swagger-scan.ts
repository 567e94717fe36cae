/** `@nestjs/swagger`'s metadata key of `@ApiExcludeController()` (set here without depending on the package). */
const API_EXCLUDE_CONTROLLER = 'swagger/apiExcludeController';

/**
 * Keeps `SwaggerModule.createDocument` from describing a controller of the module: its routes are
 * generic (`:type/:id`), and the module's own documents describe them (merge those instead).
 */
export function excludeFromSwaggerScan(controller: object): void {
  Reflect.defineMetadata(API_EXCLUDE_CONTROLLER, [true], controller);
}

// The API reference: Swagger UI (swagger-ui-dist, served by this server) reading /openapi.json. No
// validator badge (it would call validator.swagger.io) and nothing else that leaves this origin.
window.ui = window.SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  defaultModelsExpandDepth: 0,
  docExpansion: 'list',
  tryItOutEnabled: false,
  presets: [window.SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});

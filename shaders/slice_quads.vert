#version 330 core
// One instance per timeline rectangle: (x0, y0, x1, y1) in screen pixels and
// a packed colour. The four corners come from gl_VertexID (triangle strip).
layout(location = 0) in vec4 a_rect;
layout(location = 1) in vec4 a_color;
uniform mat4 u_projection;
out vec4 v_color;
void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  vec2 pos = mix(a_rect.xy, a_rect.zw, corner);
  v_color = a_color;
  gl_Position = u_projection * vec4(pos, 0.0, 1.0);
}

// Instanced rectangle renderer; see gl_quad_renderer.h.
#include <epoxy/gl.h>

#include "app/gui/gl_quad_renderer.h"

#include <imgui.h>

#include "stepline_shaders.h"

namespace stepline::app {
namespace {

GLuint Compile(GLenum type, const char* source, std::string* error) {
  GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024];
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    *error = std::string("shader compile failed: ") + log;
    glDeleteShader(shader);
    return 0;
  }
  return shader;
}

}  // namespace

GlQuadRenderer::~GlQuadRenderer() {
  if (vbo_) glDeleteBuffers(1, &vbo_);
  if (vao_) glDeleteVertexArrays(1, &vao_);
  if (program_) glDeleteProgram(program_);
}

bool GlQuadRenderer::Init(std::string* error) {
  GLuint vs = Compile(GL_VERTEX_SHADER, shaders::kSliceQuadsVert, error);
  if (!vs) return false;
  GLuint fs = Compile(GL_FRAGMENT_SHADER, shaders::kSliceQuadsFrag, error);
  if (!fs) return false;
  program_ = glCreateProgram();
  glAttachShader(program_, vs);
  glAttachShader(program_, fs);
  glLinkProgram(program_);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program_, GL_LINK_STATUS, &ok);
  if (!ok) {
    *error = "shader link failed";
    return false;
  }
  projection_location_ = glGetUniformLocation(program_, "u_projection");
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(ui::QuadInstance),
                        reinterpret_cast<void*>(offsetof(ui::QuadInstance, x0)));
  glVertexAttribDivisor(0, 1);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(ui::QuadInstance),
                        reinterpret_cast<void*>(offsetof(ui::QuadInstance, color)));
  glVertexAttribDivisor(1, 1);
  glBindVertexArray(0);
  return true;
}

void GlQuadRenderer::Draw(ImDrawList* draw_list, std::span<const ui::QuadInstance> quads) {
  if (quads.empty()) return;
  auto batch = std::make_unique<Batch>();
  batch->self = this;
  batch->quads.assign(quads.begin(), quads.end());
  draw_list->AddCallback(reinterpret_cast<ImDrawCallback>(&GlQuadRenderer::RenderBatch), batch.get());
  draw_list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
  batches_.push_back(std::move(batch));
}

void GlQuadRenderer::RenderBatch(const ImDrawList* /*list*/, const ImDrawCmd* cmd) {
  const Batch& batch = *static_cast<const Batch*>(cmd->UserCallbackData);
  GlQuadRenderer& self = *batch.self;
  const ImDrawData* dd = ImGui::GetDrawData();
  const float l = dd->DisplayPos.x, r = dd->DisplayPos.x + dd->DisplaySize.x;
  const float t = dd->DisplayPos.y, b = dd->DisplayPos.y + dd->DisplaySize.y;
  const float projection[16] = {2.f / (r - l), 0, 0, 0, 0, 2.f / (t - b), 0, 0, 0, 0, -1, 0,
                                (r + l) / (l - r), (t + b) / (b - t), 0, 1};
  // Scissor to the clip rect the callback was queued under, in framebuffer pixels.
  const ImVec2 scale = dd->FramebufferScale;
  const float fb_h = dd->DisplaySize.y * scale.y;
  const ImVec4 clip = cmd->ClipRect;
  glEnable(GL_SCISSOR_TEST);
  glScissor(static_cast<GLint>((clip.x - l) * scale.x), static_cast<GLint>(fb_h - (clip.w - t) * scale.y),
            static_cast<GLsizei>((clip.z - clip.x) * scale.x), static_cast<GLsizei>((clip.w - clip.y) * scale.y));
  glUseProgram(self.program_);
  glUniformMatrix4fv(self.projection_location_, 1, GL_FALSE, projection);
  glBindVertexArray(self.vao_);
  glBindBuffer(GL_ARRAY_BUFFER, self.vbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(batch.quads.size() * sizeof(ui::QuadInstance)),
               batch.quads.data(), GL_STREAM_DRAW);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(batch.quads.size()));
  glBindVertexArray(0);
}

}  // namespace stepline::app

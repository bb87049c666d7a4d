// One frame of the viewer window as cmd_view's loop runs it: input (the
// pointer hidden in a frame kept as a picture), the session's frame, render,
// then the pictures and exports it asked for, before the swap.
#pragma once

#include "app/gui/gl_quad_renderer.h"
#include "app/gui/gl_window.h"
#include "app/gui/picture_saver.h"
#include "app/gui/viewer_session.h"

namespace stepline::app {

// `gl_renderer` (may be null) is reset for the frame; `renderer` draws the
// slices. Notices (saved paths, errors) go to the session's toast.
ViewerSession::FrameResult RunViewerFrame(GlWindow& window, ViewerSession& session, PictureSaver& pictures,
                                          GlQuadRenderer* gl_renderer, ui::QuadRenderer* renderer);

}  // namespace stepline::app

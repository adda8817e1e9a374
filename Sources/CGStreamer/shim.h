#ifndef TILT_CGSTREAMER_SHIM_H
#define TILT_CGSTREAMER_SHIM_H
// GStreamer (Debian: libgstreamer1.0-dev, libgstreamer-plugins-base1.0-dev): the core, the app sink and app source
// (frames in and out of a pipeline) and the raw-video helpers. Used by TiltMedia only.
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

// GStreamer's casts and reference helpers are macros, which Swift does not import; these are the ones tilt needs.
static inline GstElement *tilt_gst_element(gpointer object) { return GST_ELEMENT(object); }
static inline GstAppSink *tilt_gst_app_sink(GstElement *element) { return GST_APP_SINK(element); }
static inline GstAppSrc *tilt_gst_app_src(GstElement *element) { return GST_APP_SRC(element); }
static inline GstBin *tilt_gst_bin(GstElement *element) { return GST_BIN(element); }
static inline GObject *tilt_g_object(gpointer object) { return G_OBJECT(object); }
static inline GstMessageType tilt_gst_message_type(GstMessage *message) { return GST_MESSAGE_TYPE(message); }
static inline GstObject *tilt_gst_message_source(GstMessage *message) { return GST_MESSAGE_SRC(message); }
static inline void tilt_gst_message_unref(GstMessage *message) { gst_message_unref(message); }
static inline void tilt_gst_sample_unref(GstSample *sample) { gst_sample_unref(sample); }
static inline void tilt_gst_caps_unref(GstCaps *caps) { gst_caps_unref(caps); }
static inline void tilt_gst_object_unref(gpointer object) { gst_object_unref(object); }

// Properties are set with g_object_set, a variadic function Swift cannot call.
static inline void tilt_g_object_set_string(gpointer object, const char *name, const char *value) {
    g_object_set(object, name, value, NULL);
}
// A message's source object name (GST_MESSAGE_SRC_NAME), or NULL.
static inline const char *tilt_gst_message_source_name(GstMessage *message) { return GST_MESSAGE_SRC_NAME(message); }
// A buffer's presentation time and duration (GST_BUFFER_PTS, GST_BUFFER_DURATION), GST_CLOCK_TIME_NONE when unknown.
static inline GstClockTime tilt_gst_buffer_pts(GstBuffer *buffer) { return GST_BUFFER_PTS(buffer); }
static inline GstClockTime tilt_gst_buffer_duration(GstBuffer *buffer) { return GST_BUFFER_DURATION(buffer); }
static inline GstBuffer *tilt_gst_buffer_ref(GstBuffer *buffer) { return gst_buffer_ref(buffer); }
static inline void tilt_gst_buffer_unref(GstBuffer *buffer) { gst_buffer_unref(buffer); }
static inline GstClockTime tilt_gst_clock_time_none(void) { return GST_CLOCK_TIME_NONE; }
// A raw video sample's width, height and row stride in bytes (plane 0), from its caps; 0 when they are not video.
static inline int tilt_gst_sample_video_info(GstSample *sample, int *width, int *height, int *stride) {
    GstCaps *caps = gst_sample_get_caps(sample);
    GstVideoInfo info;
    if (caps == NULL || !gst_video_info_from_caps(&info, caps)) return 0;
    *width = GST_VIDEO_INFO_WIDTH(&info);
    *height = GST_VIDEO_INFO_HEIGHT(&info);
    *stride = GST_VIDEO_INFO_PLANE_STRIDE(&info, 0);
    return 1;
}
/// The time of frame `index` at `numerator`/`denominator` frames per second, in nanoseconds, without rounding drift.
static inline GstClockTime tilt_gst_frame_time(guint64 index, gint numerator, gint denominator) {
    return gst_util_uint64_scale(index, GST_SECOND * (guint64)denominator, (guint64)numerator);
}
#endif

#include "CVips.h"

int CVips_init(const char *programName)
{
    return VIPS_INIT(programName);
}

int CVips_uprightSize(const char *path, int *width, int *height)
{
    VipsImage *image = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (image == NULL) {
        vips_error_clear();
        return -1;
    }
    int w = vips_image_get_width(image);
    int h = vips_image_get_height(image);
    // Orientations 5–8 turn the picture a quarter, so its upright width is the stored height.
    if (vips_image_get_orientation_swap(image)) {
        int t = w; w = h; h = t;
    }
    *width = w;
    *height = h;
    g_object_unref(image);
    return 0;
}

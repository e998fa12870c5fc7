import Testing

@testable import StackWebServer

/// A path below the photo folder → its real path: the folder's own, or the mounted folder's.
@Suite struct PhotoTreeTests {
    static let tree = PhotoTree(root: "/photos", mount: PhotoTree.Mount(name: "Uploads", folder: "/var/lib/sw/Uploads"))

    @Test(
        arguments: [
            ("", "/photos"), ("a.jpg", "/photos/a.jpg"), ("trip/a.jpg", "/photos/trip/a.jpg"),
            ("Uploads", "/var/lib/sw/Uploads"), ("Uploads/main/a.jpg", "/var/lib/sw/Uploads/main/a.jpg"),
            ("UploadsOld/a.jpg", "/photos/UploadsOld/a.jpg"), ("trip/Uploads/a.jpg", "/photos/trip/Uploads/a.jpg"),
        ])
    func aPathIsFoundInTheFolderOrTheMountedOne(relative: String, path: String) {
        #expect(Self.tree.path(of: relative) == path)
    }

    @Test func withoutAMountEveryPathIsInTheFolder() {
        let tree = PhotoTree(root: "/photos")
        #expect(tree.path(of: "Uploads/main/a.jpg") == "/photos/Uploads/main/a.jpg")
        #expect(tree.path(of: "") == "/photos")
    }
}
